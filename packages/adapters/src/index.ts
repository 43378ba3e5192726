export * from './http/koa/index.ts';
export * from './identity/local/index.ts';
export * from './persistence/mikro-orm/index.ts';
export * from './shared/UuidV7Generator.ts';
