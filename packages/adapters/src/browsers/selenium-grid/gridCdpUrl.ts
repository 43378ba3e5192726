/**
 * The URL to reach a Grid session's CDP endpoint from here: the `se:cdp` the Grid answered, its
 * scheme and host replaced with the Grid URL's (a Grid behind a load balancer or in a cluster
 * reports the address it knows itself by, e.g. `ws://selenium-hub:4444/…`), its path kept. Without
 * `se:cdp` (an older Grid), the router's own `/session/{id}/se/cdp` under the Grid URL. Null when
 * `se:cdp` is not a WebSocket URL.
 */
export function gridCdpUrl(baseUrl: URL, sessionId: string, seCdp: unknown): string | null {
  const url = new URL(baseUrl);
  url.protocol = baseUrl.protocol === 'https:' ? 'wss:' : 'ws:';
  if (typeof seCdp !== 'string') {
    url.pathname = `${baseUrl.pathname}session/${encodeURIComponent(sessionId)}/se/cdp`;
    return url.toString();
  }
  let reported: URL;
  try {
    reported = new URL(seCdp);
  } catch {
    return null;
  }
  if (reported.protocol !== 'ws:' && reported.protocol !== 'wss:') return null;
  // A Grid reached under a path of a proxy in front of it may not know that path: keep it in front.
  const prefix = baseUrl.pathname;
  url.pathname = reported.pathname.startsWith(prefix)
    ? reported.pathname
    : `${prefix}${reported.pathname.slice(1)}`;
  url.search = reported.search;
  return url.toString();
}
