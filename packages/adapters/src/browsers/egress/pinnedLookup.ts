import type { LookupAddress, LookupOptions, lookup } from 'node:dns';

/**
 * A `dns.lookup` replacement that answers any name with `addresses` (those the egress policy
 * allowed), so the socket connects to an address that was checked, whatever DNS says by then.
 * It honours the `family` and `all` options Node's `net` passes (all with Happy Eyeballs).
 */
export function pinnedLookup(addresses: readonly LookupAddress[]): typeof lookup {
  const answer = (hostname: string, options: unknown, callback?: unknown): void => {
    const done = (typeof options === 'function' ? options : callback) as (...args: unknown[]) => void;
    const opts: LookupOptions =
      typeof options === 'number' ? { family: options } : typeof options === 'object' ? (options ?? {}) : {};
    const family = opts.family === 'IPv4' ? 4 : opts.family === 'IPv6' ? 6 : Number(opts.family ?? 0);
    const found = addresses.filter((a) => family === 0 || a.family === family);
    process.nextTick(() => {
      if (found.length === 0) {
        done(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname }));
      } else if (opts.all) {
        done(
          null,
          found.map((a) => ({ address: a.address, family: a.family })),
        );
      } else {
        done(null, found[0]!.address, found[0]!.family);
      }
    });
  };
  return answer as unknown as typeof lookup;
}
