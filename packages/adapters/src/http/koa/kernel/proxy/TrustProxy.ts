import proxyaddr from 'proxy-addr';

/**
 * Which peers may tell the app who the client is and how it reached them (`X-Forwarded-For`,
 * `X-Forwarded-Proto`, `X-Forwarded-Host`), as `TRUST_PROXY` says (docs/adr/0032):
 * - `false`: none; the client is the socket's peer and forwarded headers are ignored;
 * - `true`: every hop; the client is the first address of `X-Forwarded-For`;
 * - a hop count `n` (integer ≥ 1): the `n` proxies nearest the server;
 * - addresses and CIDRs (IPv4 or IPv6, `a.b.c.d/mask` too) and `proxy-addr`'s names `loopback`,
 *   `linklocal`, `uniquelocal`, as a list or one comma-separated string: a hop counts only when it
 *   and every hop between it and the server are among them.
 */
export type TrustProxy = boolean | number | string | readonly string[];

/** Whether the hop at `addr`, `hop` steps from the server (0: the socket's peer), is trusted. */
export type TrustsHop = (addr: string, hop: number) => boolean;

/** `trust` as the function `proxy-addr` walks the hops with; throws a `TypeError` naming a bad entry. */
export function compileTrustProxy(trust: TrustProxy): TrustsHop {
  if (trust === true) return () => true;
  if (trust === false) return () => false;
  if (typeof trust === 'number') {
    if (!Number.isInteger(trust) || trust < 1)
      throw new TypeError(`a hop count must be an integer of at least 1, not ${trust}`);
    return (_addr, hop) => hop < trust;
  }
  const entries = (typeof trust === 'string' ? trust.split(',') : [...trust])
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (entries.length === 0) throw new TypeError('a list of trusted proxies must name at least one');
  for (const entry of entries) {
    try {
      proxyaddr.compile(entry);
    } catch {
      throw new TypeError(
        `${JSON.stringify(entry)} is not an IP address, a CIDR, loopback, linklocal or uniquelocal`,
      );
    }
  }
  return proxyaddr.compile(entries);
}

/**
 * The text of `TRUST_PROXY` as a `TrustProxy`: `false` or `true`, a hop count, or a comma-separated
 * list (checked). Throws a `TypeError` saying what is wrong.
 */
export function parseTrustProxy(text: string): TrustProxy {
  const value = text.trim();
  if (/^(false|true)$/i.test(value)) return value.toLowerCase() === 'true';
  const trust = /^\d+$/.test(value) ? Number(value) : value;
  compileTrustProxy(trust);
  return trust;
}
