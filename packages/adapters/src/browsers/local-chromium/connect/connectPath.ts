/** The path of a session's connect endpoint, under the service's public URL. */
export function connectPath(providerSessionId: string): string {
  return `/v1/local/sessions/${encodeURIComponent(providerSessionId)}/connect`;
}

/**
 * The `connectUrl` handed out: the public URL turned into a WebSocket URL (`http:` → `ws:`,
 * `https:` → `wss:`, its path kept as a prefix), the connect path and the signing key.
 */
export function buildConnectUrl(publicUrl: string, providerSessionId: string, signingKey: string): string {
  const url = new URL(publicUrl);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  const prefix = url.pathname.replace(/\/+$/, '');
  url.pathname = `${prefix}${connectPath(providerSessionId)}`;
  url.search = new URLSearchParams({ signingKey }).toString();
  url.hash = '';
  return url.toString();
}

const CONNECT_PATH = /^(.*)\/v1\/local\/sessions\/([A-Za-z0-9-]{1,64})\/connect$/;

/**
 * The session id and signing key of an upgrade request for a connect endpoint; null when the
 * request is not for one (with or without the public URL's path prefix, which a reverse proxy may
 * strip).
 */
export function parseConnectRequest(
  requestUrl: string | undefined,
  publicUrl: string,
): { providerSessionId: string; signingKey: string | null } | null {
  if (!requestUrl) return null;
  let url: URL;
  try {
    url = new URL(requestUrl, 'http://localhost');
  } catch {
    return null;
  }
  const match = CONNECT_PATH.exec(url.pathname);
  if (!match) return null;
  const prefix = new URL(publicUrl).pathname.replace(/\/+$/, '');
  if (match[1] !== '' && match[1] !== prefix) return null;
  return { providerSessionId: match[2]!, signingKey: url.searchParams.get('signingKey') };
}
