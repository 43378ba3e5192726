/** Where the live-view page, its assets and its WebSocket are served (http-api.md §14). */
export const LIVE_VIEW_BASE_PATH = '/v1/live';

const SOCKET_PATH = /^(.*)\/v1\/live\/([0-9A-Fa-f-]{36})\/ws$/;

/**
 * The live-view page of a session, under the public URL (its path kept as a prefix), with the token
 * as its first query parameter, so options append as `&name=value`.
 */
export function liveViewPageUrl(publicUrl: string, sessionId: string, token: string): string {
  const url = new URL(publicUrl);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}${LIVE_VIEW_BASE_PATH}/${encodeURIComponent(sessionId)}`;
  url.search = new URLSearchParams({ token }).toString();
  url.hash = '';
  return url.toString();
}

/**
 * The session id and query of an upgrade request for a live-view WebSocket
 * (`<prefix>/v1/live/{session_id}/ws?…`); null when the request is not for one (with or without the
 * mount prefix, which a reverse proxy may strip).
 */
export function parseLiveViewSocketRequest(
  requestUrl: string | undefined,
  mountPrefix: string,
): { sessionId: string; query: URLSearchParams } | null {
  if (!requestUrl) return null;
  let url: URL;
  try {
    url = new URL(requestUrl, 'http://localhost');
  } catch {
    return null;
  }
  const match = SOCKET_PATH.exec(url.pathname);
  if (!match || (match[1] !== '' && match[1] !== mountPrefix)) return null;
  return { sessionId: (match[2] as string).toLowerCase(), query: url.searchParams };
}
