export * from './domain/index.ts';
