import { ProviderError, type ProviderLivePage, type ProviderLiveUrls } from '@browserdeck/domain';

/**
 * Reads Browserbase's `SessionLiveURLs` (`GET /v1/sessions/{id}/debug`) into the URLs passed through
 * to clients: only the fields of that shape, each a string (`faviconUrl` may be missing: empty). A
 * body of another shape is a `provider_error`.
 */
export function toProviderLiveUrls(body: unknown): ProviderLiveUrls {
  const live = objectOf(body, 'is not an object');
  const pages = live.pages ?? [];
  if (!Array.isArray(pages)) throw malformed('has pages that are not a list');
  return {
    debuggerUrl: stringOf(live, 'debuggerUrl'),
    debuggerFullscreenUrl: stringOf(live, 'debuggerFullscreenUrl'),
    wsUrl: stringOf(live, 'wsUrl'),
    pages: pages.map((item): ProviderLivePage => {
      const page = objectOf(item, 'has a page that is not an object');
      return {
        id: stringOf(page, 'id'),
        url: stringOf(page, 'url', ''),
        title: stringOf(page, 'title', ''),
        faviconUrl: stringOf(page, 'faviconUrl', ''),
        debuggerUrl: stringOf(page, 'debuggerUrl'),
        debuggerFullscreenUrl: stringOf(page, 'debuggerFullscreenUrl'),
      };
    }),
  };
}

function objectOf(value: unknown, what: string): Record<string, unknown> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw malformed(what);
  return value as Record<string, unknown>;
}

/** The field's string; `fallback` when it is missing or null (else it is required). */
function stringOf(object: Record<string, unknown>, field: string, fallback?: string): string {
  const value = object[field] ?? fallback;
  if (typeof value !== 'string') throw malformed(`has no ${field} string`);
  return value;
}

function malformed(what: string): ProviderError {
  return new ProviderError('provider_error', `Browserbase sent live-view URLs that ${what}.`);
}
