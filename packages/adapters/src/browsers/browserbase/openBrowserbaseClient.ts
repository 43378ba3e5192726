import type { Browserbase, ClientOptions } from '@browserbasehq/sdk';
import { type BrowserbaseSdk, loadBrowserbaseSdk } from './loadBrowserbaseSdk.ts';

/**
 * Loads the Browserbase SDK and builds its client: its own retries off, the base URL explicit (so
 * it never falls back to reading `BROWSERBASE_BASE_URL` itself), `fetch` looked up per call.
 */
export async function openBrowserbaseClient(options: {
  apiKey: string;
  baseUrl: string;
  timeoutMs: number;
}): Promise<{ sdk: BrowserbaseSdk; client: Browserbase }> {
  const sdk = await loadBrowserbaseSdk();
  const client = new sdk.Browserbase({
    apiKey: options.apiKey,
    baseURL: options.baseUrl,
    timeout: options.timeoutMs,
    maxRetries: 0,
    // The SDK captures `globalThis.fetch` when it loads; look it up per call instead, so fetch
    // instrumentation (tracing, nock) installed after the import still sees our requests.
    // A multipart upload (an extension) comes as a Node stream, which fetch sends only half-duplex.
    fetch: ((url, init) =>
      globalThis.fetch(
        url,
        // `duplex` is Node's (undici's) RequestInit field; the DOM's type does not know it.
        streamed(init) ? ({ ...init, duplex: 'half' } as RequestInit) : init,
      )) as typeof fetch as unknown as ClientOptions['fetch'],
  });
  return { sdk, client };
}

/** Whether a request's body is a stream (the SDK's multipart bodies), which fetch needs `duplex` for. */
function streamed(init: RequestInit | undefined): boolean {
  const body = init?.body as unknown;
  return (
    typeof body === 'object' && body !== null && Symbol.asyncIterator in body && !(body instanceof Uint8Array)
  );
}
