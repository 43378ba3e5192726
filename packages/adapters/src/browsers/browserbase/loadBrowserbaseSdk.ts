import type * as BrowserbaseSdkModule from '@browserbasehq/sdk';

/** The `@browserbasehq/sdk` module. */
export type BrowserbaseSdk = typeof BrowserbaseSdkModule;

let loading: Promise<BrowserbaseSdk> | undefined;

/**
 * Loads `@browserbasehq/sdk` on first use. It is an optional peer dependency, and the package's
 * index re-exports this provider: a static import would break every host without the SDK.
 */
export function loadBrowserbaseSdk(): Promise<BrowserbaseSdk> {
  loading ??= import('@browserbasehq/sdk').catch((error: unknown) => {
    loading = undefined;
    throw new Error(
      'The browserbase provider needs the @browserbasehq/sdk package (npm i @browserbasehq/sdk).',
      { cause: error },
    );
  });
  return loading;
}
