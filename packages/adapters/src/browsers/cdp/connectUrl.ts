/** What a provider session id looks like in a connect path (UUIDs, WebDriver session ids). */
export const PROVIDER_SESSION_ID = /^[A-Za-z0-9-]{1,64}$/;

/** A provider's connect endpoint path template, as the HTTP route table matches it. */
export function connectPathTemplate(providerName: string): string {
  return `/v1/${providerName}/sessions/{provider_session_id}/connect`;
}

/** The path of a session's connect endpoint, under the service's public URL. */
export function providerConnectPath(providerName: string, providerSessionId: string): string {
  return `/v1/${providerName}/sessions/${encodeURIComponent(providerSessionId)}/connect`;
}

/**
 * The `connectUrl` handed out: the public URL turned into a WebSocket URL (`http:` → `ws:`,
 * `https:` → `wss:`, its path kept as a prefix), the provider's connect path and the signing key.
 */
export function buildProviderConnectUrl(
  publicUrl: string,
  providerName: string,
  providerSessionId: string,
  signingKey: string,
): string {
  const url = new URL(publicUrl);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  const prefix = url.pathname.replace(/\/+$/, '');
  url.pathname = `${prefix}${providerConnectPath(providerName, providerSessionId)}`;
  url.search = new URLSearchParams({ signingKey }).toString();
  url.hash = '';
  return url.toString();
}
