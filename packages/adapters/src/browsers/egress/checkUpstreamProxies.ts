import type { SessionProxy } from '@browserdeck/domain';
import {
  PROXY_SERVER_PATTERN,
  SESSION_PROXIES_MAX,
  UnsupportedOptionError,
  ValidationError,
} from '@browserdeck/domain';
import { compileDomainPattern } from './compileDomainPattern.ts';
import type { EgressPolicy } from './EgressPolicy.ts';
import { type EgressLookup, resolveDestination } from './resolveDestination.ts';
import type { UpstreamRoute } from './UpstreamRoute.ts';

const ALL_HOSTS = () => true;

const SERVER_EXAMPLE = 'must be http://host:port, such as http://proxy.example.com:8080';

/**
 * Checks a create request's `proxies` for the local provider and turns them into the routes its
 * egress proxy applies (`UpstreamRoute`), before any browser is launched. Refused with a 400:
 * - `type: 'browserbase'` (`unsupported_option`: there is no provider proxy network here);
 * - an upstream that is not `http://host:port` (the domain's `PROXY_SERVER_PATTERN`: the port is
 *   required; https and SOCKS upstreams are not supported, `unsupported_option`; credentials go in
 *   `username` / `password`, not in the URL), more than `SESSION_PROXIES_MAX` entries (the domain's
 *   rules, checked again for in-process callers), a username with a colon, an invalid
 *   or slow `domainPattern` (`compileDomainPattern`) (`validation_failed`);
 * - an upstream whose address the egress policy refuses, or that does not resolve
 *   (`validation_failed`, naming the rule): a proxy setting cannot reach the host's private networks.
 * The upstream is resolved once here and its first allowed address pinned into the route, so DNS
 * that changes later (rebinding) cannot move it to a refused address. Messages never carry the
 * password. Null or empty `proxies`: no routes.
 */
export async function checkUpstreamProxies(
  proxies: readonly SessionProxy[] | null,
  policy: EgressPolicy,
  lookup: EgressLookup,
): Promise<UpstreamRoute[]> {
  if (!proxies || proxies.length === 0) return [];
  if (proxies.length > SESSION_PROXIES_MAX)
    throw ValidationError.field('proxies', `at most ${SESSION_PROXIES_MAX} entries`);
  return Promise.all(proxies.map((proxy, index) => checkOne(proxy, index, policy, lookup)));
}

async function checkOne(
  proxy: SessionProxy,
  index: number,
  policy: EgressPolicy,
  lookup: EgressLookup,
): Promise<UpstreamRoute> {
  const at = (field: string) => `proxies.${index}.${field}`;
  if (proxy.type === 'browserbase')
    throw new UnsupportedOptionError(
      'proxies',
      `${at('type')}: the local browser provider has no proxy network of its own; use { type: 'external', server, username, password } or { type: 'none' }.`,
    );
  let matches: (host: string) => boolean = ALL_HOSTS;
  if (proxy.domainPattern !== undefined) {
    try {
      matches = compileDomainPattern(proxy.domainPattern);
    } catch (error) {
      throw ValidationError.field(at('domainPattern'), (error as Error).message);
    }
  }
  if (proxy.type === 'none') return { kind: 'none', index, matches };
  const server = parseServer(proxy.server, at('server'));
  if (proxy.username?.includes(':'))
    throw ValidationError.field(at('username'), 'must not contain a colon (HTTP Basic credentials)');
  const destination = await resolveDestination(server.hostname, server.port, policy, lookup);
  if (!destination.reachable)
    throw ValidationError.field(
      at('server'),
      destination.refused
        ? `the upstream proxy ${server.label} is refused by the egress policy: ${destination.reason}. See EGRESS_ALLOW.`
        : `the upstream proxy ${server.label} cannot be resolved (${destination.reason}).`,
    );
  const address = destination.addresses[0]!;
  const host = address.family === 6 ? `[${address.address}]` : address.address;
  // Percent-encoded in full ('%' included); proxy-chain decodes them into the Basic credentials.
  const credentials =
    proxy.username !== undefined || proxy.password !== undefined
      ? `${encodeURIComponent(proxy.username ?? '')}:${encodeURIComponent(proxy.password ?? '')}@`
      : '';
  const url = `http://${credentials}${host}:${server.port}`;
  return { kind: 'external', index, matches, url, label: server.label };
}

/**
 * `http://host:port` (a trailing `/` allowed; the domain's `PROXY_SERVER_PATTERN`, which requires
 * the port): its host name (IPv6 in brackets), port and credential-free label.
 */
function parseServer(text: string, path: string): { hostname: string; port: number; label: string } {
  const match = PROXY_SERVER_PATTERN.exec(text);
  const port = Number(match?.[3] ?? 0);
  if (!match || port < 1 || port > 65_535) throw ValidationError.field(path, SERVER_EXAMPLE);
  const scheme = match[1]!.toLowerCase();
  if (scheme !== 'http')
    throw new UnsupportedOptionError(
      'proxies',
      `${path}: the local browser provider chains only http:// upstream proxies (not ${scheme}).`,
    );
  const hostname = match[2]!.toLowerCase();
  return { hostname, port, label: `http://${hostname}:${port}` };
}
