/** Where the live-view page, its assets and its WebSocket are served (http-api.md §14). */
export const LIVE_VIEW_BASE_PATH = '/v1/live';

/** The live-view WebSocket's path template, an upgrade route of the table. */
export const LIVE_VIEW_SOCKET_PATH = `${LIVE_VIEW_BASE_PATH}/{session_id}/ws`;

/** What a session id in the socket's path looks like (a UUID, any case). */
export const LIVE_VIEW_SESSION_ID = /^[0-9A-Fa-f-]{36}$/;

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
