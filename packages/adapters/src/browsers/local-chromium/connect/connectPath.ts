/** The connect endpoint's path template, as the HTTP route table matches it. */
export const CONNECT_PATH_TEMPLATE = '/v1/local/sessions/{provider_session_id}/connect';

/** What a provider session id looks like (the provider makes them: UUIDs). */
export const PROVIDER_SESSION_ID = /^[A-Za-z0-9-]{1,64}$/;

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
