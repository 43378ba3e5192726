export * from './builders/index.ts';
export * from './domain/index.ts';
