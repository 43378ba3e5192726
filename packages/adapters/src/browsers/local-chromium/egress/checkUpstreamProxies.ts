import type { SessionProxy } from '@browserdeck/domain';
import { UnsupportedOptionError, ValidationError } from '@browserdeck/domain';
import { compileDomainPattern } from './compileDomainPattern.ts';
import type { EgressPolicy } from './EgressPolicy.ts';
import { type EgressLookup, resolveDestination } from './resolveDestination.ts';
import type { UpstreamRoute } from './UpstreamRoute.ts';

/** How many `proxies` entries one session may have. */
export const MAX_SESSION_PROXIES = 32;

const ALL_HOSTS = () => true;

/** Upstream schemes proxy-chain knows that the local provider does not chain (refused as unsupported). */
const OTHER_PROXY_SCHEMES: readonly string[] = [
  'https:',
  'socks:',
  'socks4:',
  'socks4a:',
  'socks5:',
  'socks5h:',
];

/**
 * Checks a create request's `proxies` for the local provider and turns them into the routes its
 * egress proxy applies (`UpstreamRoute`), before any browser is launched. Refused with a 400:
 * - `type: 'browserbase'` (`unsupported_option`: there is no provider proxy network here);
 * - an upstream that is not `http://host[:port]` (https and SOCKS upstreams are not supported;
 *   credentials go in `username` / `password`, not in the URL), a username with a colon, an invalid
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
  if (proxies.length > MAX_SESSION_PROXIES)
    throw ValidationError.field('proxies', `at most ${MAX_SESSION_PROXIES} entries`);
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

/** `http://host[:port]` (a trailing `/` allowed): its host name, port and credential-free label. */
function parseServer(text: string, path: string): { hostname: string; port: number; label: string } {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw ValidationError.field(path, 'must be a URL such as http://proxy.example.com:8080');
  }
  if (url.protocol !== 'http:' && !OTHER_PROXY_SCHEMES.includes(url.protocol))
    throw ValidationError.field(path, 'must be a URL such as http://proxy.example.com:8080');
  if (url.protocol !== 'http:')
    throw new UnsupportedOptionError(
      'proxies',
      `${path}: the local browser provider chains only http:// upstream proxies (not ${url.protocol.slice(0, -1)}).`,
    );
  if (url.username || url.password)
    throw ValidationError.field(path, 'must not hold credentials; pass them as username and password');
  if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash)
    throw ValidationError.field(path, 'must be http://host[:port], without a path');
  const port = url.port === '' ? 80 : Number(url.port);
  return { hostname: url.hostname, port, label: `http://${url.host}` };
}
