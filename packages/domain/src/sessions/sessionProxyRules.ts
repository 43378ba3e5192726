import { type Checks, isPlainObject } from '../shared/checks.ts';
import type { SessionProxy } from './sessionOptions.ts';

/** Most upstream proxies one session may name (http-api.md §5 `proxies`). */
export const SESSION_PROXIES_MAX = 10;
/** Longest `server` of an external proxy. */
export const PROXY_SERVER_MAX_LENGTH = 2048;
/** Longest `username` or `password` of an external proxy. */
export const PROXY_CREDENTIAL_MAX_LENGTH = 512;
/** Longest `domainPattern` (a regular expression over the host name). */
export const PROXY_DOMAIN_PATTERN_MAX_LENGTH = 256;
/** Longest `geolocation.city` of a provider-managed proxy. */
export const PROXY_CITY_MAX_LENGTH = 100;
/** The kinds of upstream proxy (Browserbase's): the caller's own, none (direct), the provider's own. */
export const SESSION_PROXY_TYPES = ['external', 'none', 'browserbase'] as const;
/** The schemes an external proxy's `server` may use. */
export const PROXY_SERVER_SCHEMES = ['http', 'https', 'socks5'] as const;
/**
 * An external proxy's `server`: `scheme://host:port`, an optional trailing `/`, nothing else. The
 * host is an ASCII name or IPv4 address, or an IPv6 address in brackets; credentials go in `username`
 * and `password`, never in the URL (it is shown and compared where they must not be).
 */
export const PROXY_SERVER_PATTERN =
  /^(http|https|socks5):\/\/(\[[0-9a-f:.]+\]|[a-z0-9](?:[a-z0-9._-]*[a-z0-9])?):(\d{1,5})\/?$/i;

/** The fields each proxy type takes, besides `type`. */
const FIELDS: Readonly<Record<SessionProxy['type'], readonly string[]>> = {
  external: ['server', 'username', 'password', 'domainPattern'],
  none: ['domainPattern'],
  browserbase: ['geolocation', 'domainPattern'],
};

/**
 * Records the rules of a session's `proxies` at `path` (each entry at `path.<index>`): at most
 * `SESSION_PROXIES_MAX` entries, each an object of one of `SESSION_PROXY_TYPES` with only that type's
 * fields; an external one's `server` matching `PROXY_SERVER_PATTERN` (port 1 to 65535), credentials
 * without control characters and a `username` without `:` (HTTP Basic cannot carry it), a
 * `password` only with a `username`; a `domainPattern` that compiles as a JavaScript regular
 * expression. Whether the provider can honour an entry (`browserbase` on the local provider) is the
 * provider's to say. Values are checked as they come, so an in-process caller's are too.
 */
export function checkSessionProxies(checks: Checks, proxies: unknown, path: string): Checks {
  if (proxies === null) return checks;
  if (!Array.isArray(proxies)) return checks.require(false, path, 'must be an array of proxies or null');
  checks.require(
    proxies.length <= SESSION_PROXIES_MAX,
    path,
    `must have at most ${SESSION_PROXIES_MAX} entries`,
  );
  proxies.slice(0, SESSION_PROXIES_MAX).forEach((proxy: unknown, index) => {
    checkProxy(checks, proxy, `${path}.${index}`);
  });
  return checks;
}

function checkProxy(checks: Checks, proxy: unknown, path: string): void {
  const types = SESSION_PROXY_TYPES.join(', ');
  if (!isPlainObject(proxy)) {
    checks.require(false, path, `must be an object with a type (${types})`);
    return;
  }
  const type = proxy.type;
  if (!(SESSION_PROXY_TYPES as readonly unknown[]).includes(type)) {
    checks.require(false, `${path}.type`, `must be one of ${types}`);
    return;
  }
  const fields = FIELDS[type as SessionProxy['type']];
  for (const key of Object.keys(proxy)) {
    if (key !== 'type' && !fields.includes(key) && proxy[key] !== undefined)
      checks.require(false, `${path}.${key}`, `is not a field of a proxy of type ${String(type)}`);
  }
  checkDomainPattern(checks, proxy.domainPattern, `${path}.domainPattern`);
  if (type === 'external') checkExternal(checks, proxy, path);
  if (type === 'browserbase') checkGeolocation(checks, proxy.geolocation, `${path}.geolocation`);
}

function checkExternal(checks: Checks, proxy: Record<string, unknown>, path: string): void {
  const { server, username, password } = proxy;
  if (typeof server !== 'string') {
    checks.require(false, `${path}.server`, 'is required: the proxy’s URL, scheme://host:port');
  } else if (server.length > PROXY_SERVER_MAX_LENGTH) {
    checks.require(false, `${path}.server`, `must be at most ${PROXY_SERVER_MAX_LENGTH} characters`);
  } else if (/^[a-z0-9+.-]+:\/\/[^/?#]*@/i.test(server)) {
    checks.require(false, `${path}.server`, 'must not carry credentials: give them as username and password');
  } else {
    const port = Number(PROXY_SERVER_PATTERN.exec(server)?.[3] ?? 0);
    checks.require(
      port >= 1 && port <= 65_535,
      `${path}.server`,
      `must be ${PROXY_SERVER_SCHEMES.map((s) => `${s}://`).join(', ')} then host:port (port 1 to 65535), with no path or query`,
    );
  }
  for (const [field, value] of [
    ['username', username],
    ['password', password],
  ] as const) {
    if (value === undefined) continue;
    if (typeof value !== 'string') {
      checks.require(false, `${path}.${field}`, 'must be a string');
      continue;
    }
    checks
      .length(value, `${path}.${field}`, 1, PROXY_CREDENTIAL_MAX_LENGTH)
      .text(value, `${path}.${field}`, 'name');
  }
  if (typeof username === 'string')
    checks.require(!username.includes(':'), `${path}.username`, 'must not contain ":"');
  checks.require(password === undefined || username !== undefined, `${path}.password`, 'needs a username');
}

function checkDomainPattern(checks: Checks, pattern: unknown, path: string): void {
  if (pattern === undefined) return;
  if (typeof pattern !== 'string') {
    checks.require(false, path, 'must be a string (a regular expression over the host name)');
    return;
  }
  checks.length(pattern, path, 1, PROXY_DOMAIN_PATTERN_MAX_LENGTH).text(pattern, path, 'name');
  checks.require(compiles(pattern), path, 'must be a valid regular expression');
}

function compiles(pattern: string): boolean {
  try {
    new RegExp(pattern);
    return true;
  } catch {
    return false;
  }
}

function checkGeolocation(checks: Checks, geolocation: unknown, path: string): void {
  if (geolocation === undefined) return;
  if (!isPlainObject(geolocation)) {
    checks.require(false, path, 'must be an object { country, state?, city? }');
    return;
  }
  const { country, state, city, ...rest } = geolocation;
  for (const key of Object.keys(rest)) checks.require(false, `${path}.${key}`, 'is not a known field');
  checks.require(
    typeof country === 'string' && /^[A-Za-z]{2}$/.test(country),
    `${path}.country`,
    'must be an ISO 3166-1 alpha-2 country code',
  );
  if (state !== undefined) {
    checks.require(
      typeof state === 'string' && /^[A-Za-z]{2}$/.test(state),
      `${path}.state`,
      'must be a two-letter US state code',
    );
    checks.require(
      typeof country === 'string' && country.toUpperCase() === 'US',
      `${path}.state`,
      'is only allowed with country US',
    );
  }
  if (city !== undefined) {
    if (typeof city !== 'string') checks.require(false, `${path}.city`, 'must be a string');
    else checks.length(city, `${path}.city`, 1, PROXY_CITY_MAX_LENGTH).text(city, `${path}.city`, 'name');
  }
}
