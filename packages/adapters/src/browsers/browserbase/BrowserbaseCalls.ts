import type { Browserbase } from '@browserbasehq/sdk';
import type { BrowserbaseSdk } from './loadBrowserbaseSdk.ts';

/**
 * How the Browserbase provider's parts call the API: `read` under the deadline, retried on
 * connection errors and 5xx, 404 → null; `call` once, a 404 null when asked, every failure a
 * `ProviderError`.
 */
export interface BrowserbaseCalls {
  read(
    operation: string,
    run: (client: Browserbase, signal: AbortSignal) => Promise<unknown>,
  ): Promise<unknown>;
  call(
    operation: string,
    run: (client: Browserbase, sdk: BrowserbaseSdk) => Promise<unknown>,
    notFoundIsNull?: boolean,
  ): Promise<unknown>;
}
