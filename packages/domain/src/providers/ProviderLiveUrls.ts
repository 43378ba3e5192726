/** One tab of a session's browser with the provider's live-view URLs for it. */
export interface ProviderLivePage {
  readonly id: string;
  readonly url: string;
  readonly title: string;
  readonly faviconUrl: string;
  readonly debuggerUrl: string;
  readonly debuggerFullscreenUrl: string;
}

/**
 * A provider's own live-view URLs for a session (Browserbase's `SessionLiveURLs`), passed through to
 * the client as they are: the provider serves the viewer, not Browserdeck.
 */
export interface ProviderLiveUrls {
  readonly debuggerUrl: string;
  readonly debuggerFullscreenUrl: string;
  readonly wsUrl: string;
  readonly pages: readonly ProviderLivePage[];
}
