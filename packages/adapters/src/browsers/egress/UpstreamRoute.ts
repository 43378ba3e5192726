/**
 * Where the egress proxy sends the requests of one of a session's `proxies` entries: through the
 * caller's upstream proxy (`external`), or direct (`none`: through the egress policy alone). `matches`
 * is the entry's `domainPattern` (every host without one).
 */
export type UpstreamRoute =
  | {
      readonly kind: 'external';
      /** Which `proxies` entry it is (for log entries and errors). */
      readonly index: number;
      readonly matches: (host: string) => boolean;
      /**
       * For proxy-chain's `upstreamProxyUrl`: the allowed, pinned address of the upstream as an IP
       * literal, with the credentials. Secret: never logged or shown.
       */
      readonly url: string;
      /** The upstream as the caller named it, without credentials (`http://proxy.example:8080`): what logs show. */
      readonly label: string;
    }
  | { readonly kind: 'none'; readonly index: number; readonly matches: (host: string) => boolean };

/**
 * The route for a request to `host` (as the proxy parsed it; IPv6 without brackets is matched too):
 * the first entry whose pattern matches, or null when none does. A request no entry matches goes
 * direct, through the egress policy alone, as `type: 'none'` would.
 */
export function pickRoute(routes: readonly UpstreamRoute[], host: string): UpstreamRoute | null {
  const name = host
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '')
    .toLowerCase();
  return routes.find((route) => route.matches(name)) ?? null;
}
