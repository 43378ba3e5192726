import type { LookupAddress } from 'node:dns';
import { DomainError, SESSION_PROXIES_MAX, type SessionProxy } from '@browserdeck/domain';
import { describe, expect, it } from 'vitest';
import { checkUpstreamProxies } from './checkUpstreamProxies.ts';
import { compileDomainPattern, MAX_HOST_LENGTH } from './compileDomainPattern.ts';
import { EgressPolicy } from './EgressPolicy.ts';
import { pickRoute, type UpstreamRoute } from './UpstreamRoute.ts';

/** DNS without the network: a few names, and a rebinding one that answers loopback. */
const lookup = async (host: string): Promise<LookupAddress[]> => {
  const answers: Record<string, LookupAddress[]> = {
    'proxy.example': [{ address: '203.0.113.10', family: 4 }],
    'public-proxy.example': [{ address: '93.184.216.34', family: 4 }],
    'v6-proxy.example': [{ address: '2606:4700::1', family: 6 }],
    'mixed.example': [
      { address: '127.0.0.1', family: 4 },
      { address: '93.184.216.35', family: 4 },
    ],
    'rebind.example': [{ address: '127.0.0.1', family: 4 }],
    // Refused ranges reached by name: the classifier is tested without naming such an address as a URL.
    'corp-proxy.example': [{ address: '10.0.0.1', family: 4 }],
    'metadata-proxy.example': [{ address: '169.254.169.254', family: 4 }],
  };
  const found = answers[host];
  if (found) return found;
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
};

const policy = new EgressPolicy();
const check = (proxies: SessionProxy[], with_ = policy) => checkUpstreamProxies(proxies, with_, lookup);

/** The error a create would fail with: its code and its one field error. */
async function refusal(proxies: SessionProxy[], with_ = policy) {
  const error = await check(proxies, with_).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  const { code, errors } = error as DomainError;
  const [field] = errors ?? [];
  return { code, path: field?.path, message: field?.message ?? '' };
}

describe('checkUpstreamProxies', () => {
  it('has no routes without proxies', async () => {
    expect(await checkUpstreamProxies(null, policy, lookup)).toEqual([]);
    expect(await check([])).toEqual([]);
  });

  it('pins an external upstream to its allowed address, with the credentials encoded in the URL only', async () => {
    const [route] = (await check([
      {
        type: 'external',
        server: 'http://public-proxy.example:3128',
        username: 'u@ser',
        password: 'p:a%ss/',
      },
    ])) as [Extract<UpstreamRoute, { kind: 'external' }>];
    expect(route).toMatchObject({ kind: 'external', index: 0, label: 'http://public-proxy.example:3128' });
    expect(route.url).toBe('http://u%40ser:p%3Aa%25ss%2F@93.184.216.34:3128');
    const parsed = new URL(route.url);
    expect([decodeURIComponent(parsed.username), decodeURIComponent(parsed.password)]).toEqual([
      'u@ser',
      'p:a%ss/',
    ]);
    expect(route.label).not.toContain('p:a');
    expect(route.matches('anything.example')).toBe(true);
  });

  it('keeps only the allowed addresses of a name, and an explicit port 80; IPv6 in brackets', async () => {
    const routes = await check([
      { type: 'external', server: 'http://mixed.example:80' },
      { type: 'external', server: 'http://v6-proxy.example:8080/' },
    ]);
    expect(routes.map((r) => (r.kind === 'external' ? r.url : null))).toEqual([
      'http://93.184.216.35:80',
      'http://[2606:4700::1]:8080',
    ]);
    // An IPv6 literal, here on loopback opened by an allow entry, stays in brackets.
    const allowing = new EgressPolicy({ allow: ['[::1]:8080'] });
    const [literal] = await check([{ type: 'external', server: 'http://[::1]:8080' }], allowing);
    expect(literal).toMatchObject({ kind: 'external', url: 'http://[::1]:8080' });
  });

  it('refuses an upstream at a refused address with a 400 naming the rule, whatever its spelling', async () => {
    for (const [server, reason] of [
      ['http://corp-proxy.example:8080', 'private (10.0.0.0/8)'],
      ['http://127.0.0.1:8080', 'loopback (127.0.0.0/8)'],
      ['http://localhost:8080', 'loopback (127.0.0.0/8)'],
      ['http://rebind.example:8080', 'loopback (127.0.0.0/8)'],
      ['http://[::1]:8080', 'loopback (::1/128)'],
      ['http://metadata-proxy.example:80', 'link-local (169.254.0.0/16)'],
      ['http://proxy.example:8080', 'documentation (203.0.113.0/24)'],
    ] as const) {
      const { code, path, message } = await refusal([
        { type: 'none', domainPattern: 'a\\.example' },
        { type: 'external', server, password: 'secret-password' },
      ]);
      expect([server, code, path]).toEqual([server, 'validation_failed', 'proxies.1.server']);
      expect(message).toContain(`refused by the egress policy: ${reason}`);
      expect(message).toContain('EGRESS_ALLOW');
      expect(message).not.toContain('secret-password');
    }
  });

  it('lets an EGRESS_ALLOW entry (with a port) open an upstream on loopback', async () => {
    const allowing = new EgressPolicy({ allow: ['127.0.0.1:8080'] });
    const [route] = await check([{ type: 'external', server: 'http://127.0.0.1:8080' }], allowing);
    expect(route).toMatchObject({ kind: 'external', url: 'http://127.0.0.1:8080' });
    const other = await refusal([{ type: 'external', server: 'http://127.0.0.1:8081' }], allowing);
    expect(other.message).toContain('EGRESS_ALLOW has 127.0.0.1:8080, not port 8081');
  });

  it('says when the upstream does not resolve', async () => {
    const { code, message } = await refusal([{ type: 'external', server: 'http://missing.example:8080' }]);
    expect(code).toBe('validation_failed');
    expect(message).toMatch(/cannot be resolved \(ENOTFOUND/);
  });

  it('refuses what the local provider cannot do, or what is malformed', async () => {
    expect(await refusal([{ type: 'browserbase' }])).toMatchObject({
      code: 'unsupported_option',
      path: 'proxies',
      message: expect.stringContaining('no proxy network of its own'),
    });
    for (const server of ['https://public-proxy.example:443', 'socks5://public-proxy.example:1080']) {
      expect(await refusal([{ type: 'external', server }])).toMatchObject({
        code: 'unsupported_option',
        message: expect.stringContaining('only http://'),
      });
    }
    const invalid: Array<[SessionProxy, string]> = [
      [{ type: 'external', server: 'public-proxy.example:8080' }, 'proxies.0.server'],
      [{ type: 'external', server: 'not a url' }, 'proxies.0.server'],
      // The port is required (the domain's PROXY_SERVER_PATTERN): no default.
      [{ type: 'external', server: 'http://public-proxy.example' }, 'proxies.0.server'],
      [{ type: 'external', server: 'http://public-proxy.example:0' }, 'proxies.0.server'],
      [{ type: 'external', server: 'http://public-proxy.example:65536' }, 'proxies.0.server'],
      [{ type: 'external', server: 'ftp://public-proxy.example:21' }, 'proxies.0.server'],
      [{ type: 'external', server: 'socks4://public-proxy.example:1080' }, 'proxies.0.server'],
      [{ type: 'external', server: 'http://user:pw@public-proxy.example:8080' }, 'proxies.0.server'],
      [{ type: 'external', server: 'http://public-proxy.example:8080/path' }, 'proxies.0.server'],
      [
        { type: 'external', server: 'http://public-proxy.example:8080', username: 'a:b' },
        'proxies.0.username',
      ],
      [
        { type: 'external', server: 'http://public-proxy.example:8080', domainPattern: '(' },
        'proxies.0.domainPattern',
      ],
      [{ type: 'none', domainPattern: '(a+)+' }, 'proxies.0.domainPattern'],
    ];
    for (const [proxy, path] of invalid) {
      expect([proxy, await refusal([proxy])]).toEqual([
        proxy,
        expect.objectContaining({ code: 'validation_failed', path }),
      ]);
    }
    // The domain's limit, also for in-process callers.
    const many = Array.from({ length: SESSION_PROXIES_MAX + 1 }, (): SessionProxy => ({ type: 'none' }));
    expect(await refusal(many)).toMatchObject({
      path: 'proxies',
      message: `at most ${SESSION_PROXIES_MAX} entries`,
    });
    expect(await check(many.slice(1))).toHaveLength(SESSION_PROXIES_MAX);
  });

  it('routes each host to the first entry whose pattern matches the whole host; no match: direct', async () => {
    const routes = await check([
      { type: 'none', domainPattern: '.*\\.internal\\.example' },
      {
        type: 'external',
        server: 'http://public-proxy.example:3128',
        domainPattern: '(.*\\.)?wikipedia\\.org',
      },
      { type: 'external', server: 'http://v6-proxy.example:3128', domainPattern: 'example\\.(com|net)' },
    ]);
    const routeOf = (host: string) => pickRoute(routes, host)?.index ?? null;
    expect(routeOf('a.internal.example')).toBe(0);
    expect(routeOf('en.wikipedia.org')).toBe(1);
    expect(routeOf('WIKIPEDIA.ORG.')).toBe(1);
    expect(routeOf('wikipedia.org.evil.test')).toBeNull();
    expect(routeOf('example.net')).toBe(2);
    expect(routeOf('www.example.com')).toBeNull();
    expect(routeOf('[2606:4700::1]')).toBeNull();
  });
});

describe('compileDomainPattern', () => {
  it('accepts the patterns people write for hosts', () => {
    for (const pattern of [
      '.*\\.example\\.com',
      '(.*\\.)?example\\.com',
      '(?:www|api)\\.example\\.com',
      '[a-z0-9-]+\\.example\\.com',
      'example\\.(com|net|org)',
      '.*',
      'a{2,3}\\.example',
      '(.*\\.)?[a-z0-9-]+\\.(example|test)\\.com',
      '.*-.*\\.example\\.com',
      '(?:www\\.)?example\\.com',
      '[a-z]{1,63}\\.example\\.com',
    ])
      expect(() => compileDomainPattern(pattern), pattern).not.toThrow();
    expect(compileDomainPattern('.*\\.example\\.com')('a.example.com')).toBe(true);
    expect(compileDomainPattern('(.*\\.)?example\\.com')('example.com')).toBe(true);
    expect(compileDomainPattern('(.*\\.)?example\\.com')('a.b.example.com')).toBe(true);
    expect(compileDomainPattern('example\\.(com|org)')('example.org')).toBe(true);
    expect(compileDomainPattern('example\\.(com|org)')('example.net')).toBe(false);
  });

  it('refuses patterns with too many choices, bounded repetitions and alternatives included', () => {
    for (const pattern of [
      // 100^4 ways: over 100 ms on a 100-character host before.
      '.{0,99}.{0,99}.{0,99}.{0,99}x',
      '.{0,99}.{0,99}.{0,99}x',
      '.*.*.*x',
      '[a-z]+[a-z]+[a-z]+x',
      // Exponential without any unbounded repetition: 2^20 ways each.
      '.?'.repeat(20),
      '(a|a)'.repeat(20),
      '(?:a|b)'.repeat(20),
    ])
      expect(() => compileDomainPattern(pattern), pattern).toThrow('too many choices');
  });

  it('keeps matching quick on the worst hosts for the patterns it accepts', () => {
    for (const [pattern, host] of [
      ['.{0,99}.{0,99}x', 'a'.repeat(MAX_HOST_LENGTH)],
      ['.*a.*a', `${'a'.repeat(MAX_HOST_LENGTH - 1)}b`],
      ['.?'.repeat(17), 'a'.repeat(18)],
      ['(.*\\.)?[a-z0-9-]+\\.(example|test)\\.com', `${'a.'.repeat(126)}a`],
    ] as const) {
      const matches = compileDomainPattern(pattern);
      const started = performance.now();
      expect(matches(host), pattern).toBe(false);
      // Generous for a loaded CI host: refused patterns take hundreds of milliseconds.
      expect(performance.now() - started, pattern).toBeLessThan(100);
    }
  });

  it('matches no host longer than a DNS name can be, so matching time stays bounded', () => {
    const matches = compileDomainPattern('.*\\.example\\.com');
    const longest = `${'a'.repeat(MAX_HOST_LENGTH - '.example.com'.length)}.example.com`;
    expect(matches(longest)).toBe(true);
    expect(matches(`a${longest}`)).toBe(false);
  });

  it('refuses patterns that could backtrack for long, and invalid ones', () => {
    for (const [pattern, problem] of [
      ['(a+)+', 'repeats a group that itself repeats'],
      ['(a|ab)*', 'repeats a group that itself repeats or alternates'],
      ['(.*\\.)+example\\.com', 'repeats a group'],
      ['((a)*){2}', 'repeats a group'],
      ['(a)\\1', 'backreference'],
      ['.*.*.*.*', 'too many choices'],
      ['[', 'not a valid regular expression'],
      ['', '1 to 256'],
      ['a'.repeat(257), '1 to 256'],
    ] as const)
      expect(() => compileDomainPattern(pattern), pattern).toThrow(problem);
  });

  it('reads character classes and escapes as such', () => {
    expect(() => compileDomainPattern('[(+*]+\\(\\)+')).not.toThrow();
    expect(compileDomainPattern('[(]x')('(x')).toBe(true);
  });
});
