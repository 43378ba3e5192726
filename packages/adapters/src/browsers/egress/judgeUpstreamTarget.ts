import { isIP } from 'node:net';
import { canonicalHost, isLocalhost } from './canonicalHost.ts';
import type { EgressPolicy, EgressRefusalRule, EgressVerdict } from './EgressPolicy.ts';

/** The verdict on a target reached through an upstream proxy; a refusal names the rule. */
export type UpstreamTargetVerdict =
  | { allowed: true }
  | { allowed: false; reason: string; rule: EgressRefusalRule; address?: string };

/**
 * Judges a request's target when an upstream proxy carries it, without resolving it here (the
 * upstream resolves names in its own network): an IP literal and `localhost` are judged by the
 * egress policy as if reached directly, and a name by the host-name `EGRESS_DENY` entries. So a
 * page cannot ask an upstream on this host, or on its network, for `127.0.0.1:<the API's port>`;
 * a name that only the upstream's DNS points at such an address is the upstream's business.
 */
export function judgeUpstreamTarget(
  hostname: string,
  port: number,
  policy: EgressPolicy,
): UpstreamTargetVerdict {
  const host = canonicalHost(hostname);
  if (host === null) return { allowed: false, reason: `not a valid host (${hostname})`, rule: 'invalid' };
  if (isIP(host) !== 0) {
    const verdict = policy.check(host, undefined, port);
    return verdict.allowed ? verdict : { ...verdict, address: host };
  }
  const named = policy.checkHost(host, port);
  if (!named.allowed) return named;
  if (isLocalhost(host)) {
    const verdicts = ['127.0.0.1', '::1'].map((address) => ({
      address,
      verdict: policy.check(address, host, port),
    }));
    if (verdicts.some(({ verdict }) => verdict.allowed)) return { allowed: true };
    const [{ address, verdict }] = verdicts as [
      { address: string; verdict: Extract<EgressVerdict, { allowed: false }> },
    ];
    return { ...verdict, address };
  }
  return { allowed: true };
}
