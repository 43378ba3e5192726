export type { Browserdeck, BrowserdeckHttp } from './Browserdeck.ts';
export type {
  AccessOptions,
  BrowserdeckOptions,
  BrowsersOption,
  DatabaseOption,
  IdentityOption,
  LocalBrowsersOptions,
  LocalIdentityOptions,
  RunsOptions,
  SeleniumGridBrowsersOptions,
  SupabaseIdentityOptions,
} from './BrowserdeckOptions.ts';
export type { BrowserdeckOverrides, UseCaseOverrides } from './BrowserdeckOverrides.ts';
export type { BrowserdeckStorage } from './BrowserdeckStorage.ts';
export { createBrowserdeck } from './createBrowserdeck.ts';
export { LOCAL_BROWSER_DEFAULTS } from './openBrowsers.ts';
export { SessionReconciler, type SessionReconcilerOptions } from './SessionReconciler.ts';
