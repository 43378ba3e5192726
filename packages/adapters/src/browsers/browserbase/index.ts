export * from '../../shared/parseRetryAfter.ts';
export * from '../orphans/InMemoryOrphanSearches.ts';
export * from '../orphans/OrphanSearches.ts';
export * from './BrowserbaseContextStore.ts';
export * from './BrowserbaseProvider.ts';
export * from './browserbaseRegions.ts';
