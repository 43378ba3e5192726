import type { LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { canonicalHost, isLocalhost } from './canonicalHost.ts';
import type { EgressPolicy, EgressRefusalRule } from './EgressPolicy.ts';

/** Resolves a host name to its addresses (`dns.lookup` with `all: true` by default). */
export type EgressLookup = (hostname: string) => Promise<readonly LookupAddress[]>;

/**
 * Where a proxied request may go: the addresses the policy allows, or why it goes nowhere —
 * `refused` by the policy (reported; `rule` says which kind of rule), or unresolvable (not a
 * refusal: the name has no address).
 */
export type Destination =
  | { reachable: true; addresses: LookupAddress[] }
  | { reachable: false; refused: true; reason: string; rule: EgressRefusalRule; address?: string }
  | { reachable: false; refused: false; reason: string };

const LOOPBACK: readonly LookupAddress[] = [
  { address: '127.0.0.1', family: 4 },
  { address: '::1', family: 6 },
];

/**
 * Resolves a proxy target host (as the client sent it) and judges every address on `port`. An IP literal,
 * including shorthands a URL parser reads as IPv4 (`127.1`, `2130706433`, `0x7f.1`), is judged
 * without lookup; `localhost` and `*.localhost` mean the loopback addresses, without DNS; other names
 * are checked against host-name entries, then resolved. Addresses the policy refuses are dropped;
 * the destination is refused when none is left: the reason is the first `EGRESS_DENY` refusal if
 * any address had one (the operator's word outranks the defaults), else the first refusal.
 */
export async function resolveDestination(
  hostname: string,
  port: number,
  policy: EgressPolicy,
  lookup: EgressLookup,
): Promise<Destination> {
  const host = canonicalHost(hostname);
  if (host === null)
    return { reachable: false, refused: true, reason: `not a valid host (${hostname})`, rule: 'invalid' };
  const family = isIP(host);
  if (family !== 0) return judge([{ address: host, family }], policy, port);
  const named = policy.checkHost(host, port);
  if (!named.allowed) return { reachable: false, refused: true, reason: named.reason, rule: named.rule };
  if (isLocalhost(host)) return judge(LOOPBACK, policy, port, host);
  let addresses: readonly LookupAddress[];
  try {
    addresses = await lookup(host);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'lookup failed';
    return { reachable: false, refused: false, reason: `${code} (${host})` };
  }
  return judge(addresses, policy, port, host);
}

function judge(
  addresses: readonly LookupAddress[],
  policy: EgressPolicy,
  port: number,
  via?: string,
): Destination {
  const allowed: LookupAddress[] = [];
  let refusal: Extract<Destination, { refused: true }> | undefined;
  for (const { address, family } of addresses) {
    const verdict = policy.check(address, via, port);
    if (verdict.allowed) allowed.push({ address, family });
    else if (!refusal || (verdict.rule === 'deny' && refusal.rule !== 'deny'))
      refusal = { reachable: false, refused: true, reason: verdict.reason, rule: verdict.rule, address };
  }
  if (allowed.length > 0) return { reachable: true, addresses: allowed };
  return refusal ?? { reachable: false, refused: false, reason: `no address (${via})` };
}
