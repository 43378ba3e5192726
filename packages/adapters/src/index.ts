export * from './browsers/browserbase/index.ts';
export * from './browsers/local-chromium/index.ts';
export * from './http/koa/index.ts';
export * from './identity/local/index.ts';
export * from './observability/index.ts';
export * from './persistence/mikro-orm/index.ts';
export * from './persistence/secrets/index.ts';
export * from './shared/UuidV7Generator.ts';
