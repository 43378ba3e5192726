import { matchPathTemplate } from './matchPathTemplate.ts';

/** What an upgrade request's URL matched: the endpoint, its decoded parameters and the query. */
export interface UpgradeMatch<E> {
  endpoint: E;
  params: Record<string, string>;
  query: URLSearchParams;
}

/**
 * The endpoint (of `endpoints`, in order) whose path template an upgrade request's URL matches, with
 * or without the mount prefix (a reverse proxy may strip it): the URL is parsed once and the prefix
 * removed once, as the HTTP router sees a mounted app's paths. A parameter is one path segment, as in
 * the HTTP routes, and never holds a colon. Null when none matches (or the URL is not one).
 */
export function matchUpgradeEndpoint<E extends { path: string }>(
  endpoints: readonly E[],
  requestUrl: string | undefined,
  mountPrefix: string,
): UpgradeMatch<E> | null {
  if (!requestUrl) return null;
  let url: URL;
  try {
    url = new URL(requestUrl, 'http://localhost');
  } catch {
    return null;
  }
  let path = url.pathname;
  if (mountPrefix && path.startsWith(`${mountPrefix}/`)) path = path.slice(mountPrefix.length);
  for (const endpoint of endpoints) {
    const match = matchPathTemplate(endpoint.path, path);
    if (match) return { endpoint, params: match.params, query: url.searchParams };
  }
  return null;
}
