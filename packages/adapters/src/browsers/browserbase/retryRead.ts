import type { BrowserbaseSdk } from './loadBrowserbaseSdk.ts';

/** How `retryRead` retries. */
export interface ReadRetryPolicy {
  /** Retries after the first attempt (0 = none). */
  readonly retries: number;
  /** Wait before the first retry; doubled for each further one. */
  readonly delayMs: number;
  /** Which failures are worth another attempt. */
  readonly isTransient: (error: unknown) => boolean;
  /** Told before each retry (for a warning log). */
  readonly onRetry?: (attempt: number, error: unknown) => void;
}

/**
 * Runs a read-only Browserbase call, retrying a bounded number of times on transient failures.
 * Never used for session creation: a retried create can start a second billed browser.
 */
export async function retryRead<T>(call: () => Promise<T>, policy: ReadRetryPolicy): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (attempt >= policy.retries || !policy.isTransient(error)) throw error;
      policy.onRetry?.(attempt + 1, error);
      await sleep(policy.delayMs * 2 ** attempt);
    }
  }
}

/**
 * A refused/reset connection or a 5xx: worth one more try for a read. Timeouts are not: each costs a
 * full request timeout, and the caller's budget is finite.
 */
export function isTransient(error: unknown, sdk: BrowserbaseSdk): boolean {
  if (error instanceof sdk.APIConnectionTimeoutError) return false;
  if (error instanceof sdk.APIConnectionError) return true;
  return error instanceof sdk.APIError && typeof error.status === 'number' && error.status >= 500;
}

function sleep(ms: number): Promise<void> {
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}
