/** A path template's `{name}` parameters: one segment, never empty, never holding a colon. */
const PARAMETER = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

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
    const params = matchTemplate(endpoint.path, path);
    if (params) return { endpoint, params, query: url.searchParams };
  }
  return null;
}

/** The decoded parameters of `path` under `template`, or null when it does not match. */
function matchTemplate(template: string, path: string): Record<string, string> | null {
  const names: string[] = [];
  const source = template
    .split(PARAMETER)
    .map((part, index) => {
      if (index % 2 === 1) {
        names.push(part);
        return '([^/:]+)';
      }
      return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('');
  const captures = new RegExp(`^${source}$`).exec(path);
  if (!captures) return null;
  const params: Record<string, string> = {};
  for (const [index, name] of names.entries()) {
    try {
      params[name] = decodeURIComponent(captures[index + 1] ?? '');
    } catch {
      return null;
    }
  }
  return params;
}
