/** The public URL when a host gives none. */
export const DEFAULT_PUBLIC_URL = 'http://127.0.0.1:3000';

/** The scheme and host a trusted proxy says the client used (`X-Forwarded-Proto`, `X-Forwarded-Host`). */
export interface ForwardedOrigin {
  protocol: 'http' | 'https';
  /** `host[:port]`, as in a URL's authority. */
  host: string;
}

/** Where this request's client reaches the API, and the URLs handed out to it (docs/adr/0032). */
export interface PublicUrls {
  /** The public URL with its path prefix: the configured one, or its origin replaced by the forwarded one. */
  readonly base: string;
  /**
   * `url` as this client should use it: a URL under the configured public URL (its `http(s):` or
   * `ws(s):` form; a stored `connectUrl`, a `seleniumRemoteUrl`) moved onto the forwarded origin,
   * keeping path and query; any other URL (a provider's own) as it is.
   */
  handOut(url: string): string;
}

/** The public URLs of a request: `configured`'s, moved onto `forwarded` when there is one. */
export function publicUrlsFor(configured: string, forwarded?: ForwardedOrigin | undefined): PublicUrls {
  if (!forwarded) return { base: configured, handOut: (url) => url };
  const from = new URL(configured);
  const prefix = from.pathname.replace(/\/+$/, '');
  const secure = from.protocol === 'https:';
  // Built as text: URL's `host` setter keeps the old port when the new host has none.
  const onForwarded = (url: URL, protocol: string) =>
    `${protocol}//${forwarded.host}${url.pathname}${url.search}${url.hash}`;
  return {
    base: onForwarded(from, `${forwarded.protocol}:`).replace(/\/+$/, ''),
    handOut: (url) => {
      let target: URL;
      try {
        target = new URL(url);
      } catch {
        return url;
      }
      const web = target.protocol === 'http:' || target.protocol === 'https:';
      const isSecure = target.protocol === 'https:' || target.protocol === 'wss:';
      const underPrefix = target.pathname === prefix || target.pathname.startsWith(`${prefix}/`);
      if (target.host !== from.host || isSecure !== secure || !underPrefix) return url;
      if (!web && target.protocol !== 'ws:' && target.protocol !== 'wss:') return url;
      const https = forwarded.protocol === 'https';
      return onForwarded(target, web ? (https ? 'https:' : 'http:') : https ? 'wss:' : 'ws:');
    },
  };
}
