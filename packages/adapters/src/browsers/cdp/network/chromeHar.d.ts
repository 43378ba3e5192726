/** The part of `chrome-har` (1.3.1, no types of its own) that `harOfCapture` uses. */
declare module 'chrome-har' {
  export interface ChromeHarMessage {
    readonly method: string;
    readonly params: unknown;
  }

  export interface ChromeHarOptions {
    /** Keep requests answered from the disk cache (chrome-har drops them by default). */
    readonly includeResourcesFromDiskCache?: boolean;
    /** Copy `response.body`, which CDP events do not carry, into `content.text`. */
    readonly includeTextFromResponseBody?: boolean;
  }

  /** A HAR 1.2 document; pages are `page_1`, `page_2`… and custom fields start with `_`. */
  export function harFromMessages(
    messages: readonly ChromeHarMessage[],
    options?: ChromeHarOptions,
  ): { log: { version: string; pages: object[]; entries: object[] } };
}
