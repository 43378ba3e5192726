export * from './BrowserbaseContextStore.ts';
export * from './BrowserbaseProvider.ts';
export * from './browserbaseRegions.ts';
export * from './parseRetryAfter.ts';
