import { describe, expect, it } from 'vitest';
import { Checks } from '../shared/checks.ts';
import { DomainError } from '../shared/DomainError.ts';
import {
  checkSessionProxies,
  PROXY_CREDENTIAL_MAX_LENGTH,
  PROXY_DOMAIN_PATTERN_MAX_LENGTH,
  PROXY_SERVER_MAX_LENGTH,
  SESSION_PROXIES_MAX,
} from './sessionProxyRules.ts';

/** The field paths `checkSessionProxies` refuses `proxies` at (none: accepted). */
function problems(proxies: unknown): string[] {
  try {
    checkSessionProxies(new Checks(), proxies, 'proxies').throwIfAny();
    return [];
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return ((error as DomainError).errors ?? []).map((e) => e.path);
  }
}

const external = (fields: Record<string, unknown> = {}) => ({
  type: 'external',
  server: 'http://proxy.example:8080',
  ...fields,
});

describe('checkSessionProxies', () => {
  it.each<[string, unknown]>([
    ['null (direct)', null],
    ['no entries', []],
    [
      'an external proxy with credentials and a pattern',
      [external({ username: 'u', password: 'p', domainPattern: '.*\\.example\\.com$' })],
    ],
    [
      'https and socks5 servers, a trailing slash, IPv4 and IPv6 hosts',
      [
        external({ server: 'https://127.0.0.2:3128/' }),
        external({ server: 'socks5://[::1]:1080' }),
        external({ server: 'SOCKS5://proxy_internal.corp:65535' }),
      ],
    ],
    ['none with a pattern, and bare none', [{ type: 'none', domainPattern: 'internal' }, { type: 'none' }]],
    [
      'the provider’s own with a US state and a city',
      [{ type: 'browserbase', geolocation: { country: 'US', state: 'NY', city: 'New York' } }],
    ],
    [`${SESSION_PROXIES_MAX} entries`, Array.from({ length: SESSION_PROXIES_MAX }, () => ({ type: 'none' }))],
    [
      'credentials and a pattern at their longest',
      [
        external({
          server: `http://${'h'.repeat(PROXY_SERVER_MAX_LENGTH - 'http://:1'.length)}:1`,
          username: 'u'.repeat(PROXY_CREDENTIAL_MAX_LENGTH),
          password: 'p'.repeat(PROXY_CREDENTIAL_MAX_LENGTH),
          domainPattern: 'd'.repeat(PROXY_DOMAIN_PATTERN_MAX_LENGTH),
        }),
      ],
    ],
  ])('accepts %s', (_, proxies) => {
    expect(problems(proxies)).toEqual([]);
  });

  it.each<[string, unknown, string]>([
    ['a value that is not an array', { type: 'none' }, 'proxies'],
    ['true (only the Browserbase dialect maps it)', true, 'proxies'],
    [
      `${SESSION_PROXIES_MAX + 1} entries`,
      Array.from({ length: SESSION_PROXIES_MAX + 1 }, () => ({ type: 'none' })),
      'proxies',
    ],
    ['an entry that is not an object', ['http://proxy.example:8080'], 'proxies.0'],
    ['an unknown type', [{ type: 'residential' }], 'proxies.0.type'],
    ['no type', [{ server: 'http://proxy.example:8080' }], 'proxies.0.type'],
    ['an external proxy without a server', [{ type: 'external' }], 'proxies.0.server'],
    ['a server that is not a string', [external({ server: 8080 })], 'proxies.0.server'],
    ['a server with an unknown scheme', [external({ server: 'ftp://proxy.example:21' })], 'proxies.0.server'],
    ['a server without a scheme', [external({ server: 'proxy.example:8080' })], 'proxies.0.server'],
    ['a server without a port', [external({ server: 'http://proxy.example' })], 'proxies.0.server'],
    ['a server with port 0', [external({ server: 'http://proxy.example:0' })], 'proxies.0.server'],
    ['a server with port 65536', [external({ server: 'http://proxy.example:65536' })], 'proxies.0.server'],
    ['a server with a path', [external({ server: 'http://proxy.example:8080/x' })], 'proxies.0.server'],
    ['a server with a query', [external({ server: 'http://proxy.example:8080?a=1' })], 'proxies.0.server'],
    [
      'a server carrying credentials',
      [external({ server: 'http://u:p@proxy.example:8080' })],
      'proxies.0.server',
    ],
    ['a server with a space', [external({ server: 'http://proxy example:8080' })], 'proxies.0.server'],
    [
      'a server with a non-ASCII host',
      [external({ server: 'http://прокси.example:8080' })],
      'proxies.0.server',
    ],
    [
      'a server over the length limit',
      [external({ server: `http://${'h'.repeat(PROXY_SERVER_MAX_LENGTH)}:1` })],
      'proxies.0.server',
    ],
    ['an empty username', [external({ username: '' })], 'proxies.0.username'],
    ['a username with a colon', [external({ username: 'a:b' })], 'proxies.0.username'],
    ['a username that is not a string', [external({ username: 7 })], 'proxies.0.username'],
    [
      'a username over the limit',
      [external({ username: 'u'.repeat(PROXY_CREDENTIAL_MAX_LENGTH + 1) })],
      'proxies.0.username',
    ],
    [
      'a password over the limit',
      [external({ username: 'u', password: 'p'.repeat(PROXY_CREDENTIAL_MAX_LENGTH + 1) })],
      'proxies.0.password',
    ],
    ['a password with a line feed', [external({ username: 'u', password: 'p\n' })], 'proxies.0.password'],
    ['a password without a username', [external({ password: 'p' })], 'proxies.0.password'],
    ['a pattern that does not compile', [external({ domainPattern: '([a-z' })], 'proxies.0.domainPattern'],
    ['an empty pattern', [{ type: 'none', domainPattern: '' }], 'proxies.0.domainPattern'],
    [
      'a pattern over the limit',
      [{ type: 'none', domainPattern: 'd'.repeat(PROXY_DOMAIN_PATTERN_MAX_LENGTH + 1) }],
      'proxies.0.domainPattern',
    ],
    ['a pattern that is not a string', [{ type: 'none', domainPattern: /x/ }], 'proxies.0.domainPattern'],
    ['none with a server', [{ type: 'none', server: 'http://proxy.example:8080' }], 'proxies.0.server'],
    ['none with credentials', [{ type: 'none', username: 'u' }], 'proxies.0.username'],
    ['external with a geolocation', [external({ geolocation: { country: 'US' } })], 'proxies.0.geolocation'],
    [
      'the provider’s own with a server',
      [{ type: 'browserbase', server: 'http://proxy.example:8080' }],
      'proxies.0.server',
    ],
    [
      'a geolocation without a country',
      [{ type: 'browserbase', geolocation: {} }],
      'proxies.0.geolocation.country',
    ],
    [
      'a three-letter country',
      [{ type: 'browserbase', geolocation: { country: 'USA' } }],
      'proxies.0.geolocation.country',
    ],
    [
      'a state outside the US',
      [{ type: 'browserbase', geolocation: { country: 'DE', state: 'BY' } }],
      'proxies.0.geolocation.state',
    ],
    [
      'an empty city',
      [{ type: 'browserbase', geolocation: { country: 'US', city: '' } }],
      'proxies.0.geolocation.city',
    ],
    [
      'an unknown geolocation field',
      [{ type: 'browserbase', geolocation: { country: 'US', zip: '10001' } }],
      'proxies.0.geolocation.zip',
    ],
  ])('refuses %s, naming the field', (_, proxies, path) => {
    expect(problems(proxies)).toContain(path);
  });

  it('names the entry at fault by its index', () => {
    expect(problems([{ type: 'none' }, external({ server: 'http://x' }), { type: 'none' }])).toEqual([
      'proxies.1.server',
    ]);
  });
});
