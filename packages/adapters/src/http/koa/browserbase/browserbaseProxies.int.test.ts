import { createTestApp, type TestApp, type TestUser } from '@browserdeck/testing/adapters';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

let t: TestApp;
let alice: TestUser;
let projectId: string;
let key: string;

/** A request as Browserbase's SDK sends it: the key in X-BB-API-Key. */
const bb = (method: string, path: string, json?: unknown) =>
  t.request(path, { method, headers: { 'X-BB-API-Key': key }, ...(json === undefined ? {} : { json }) });

beforeEach(async () => {
  t = await createTestApp();
  alice = await t.signUpAndIn('alice@example.com');
  projectId = await t.createProject(alice, 'Shop');
  key = await t.createApiKey(alice, projectId);
});
afterEach(() => t.close());

const PASSWORD = 'bb-proxy-pass-6620';
const providerProxies = () => t.provider.calls.flatMap((c) => (c.op === 'create' ? [c.request.proxies] : []));

describe('the Browserbase-compatible API: proxies', () => {
  it('passes the array form on (external with credentials, none, its own with a geolocation) and never answers it', async () => {
    const proxies = [
      {
        type: 'external',
        server: 'socks5://socks-proxy.example:1080',
        username: 'u',
        password: PASSWORD,
        domainPattern: 'shop',
      },
      { type: 'browserbase', geolocation: { country: 'US', state: 'CA', city: 'San Francisco' } },
      { type: 'none' },
    ];
    const res = await bb('POST', '/v1/sessions', { projectId, proxies, proxySettings: {} });
    expect(res.status, await res.clone().text()).toBe(201);
    const session = (await res.json()) as { id: string; proxyBytes: number };
    expect(session.proxyBytes).toBe(0);
    expect(providerProxies()).toEqual([proxies]);
    for (const answer of [
      JSON.stringify(session),
      await (await bb('GET', `/v1/sessions/${session.id}`)).text(),
      await (await bb('GET', '/v1/sessions')).text(),
    ]) {
      expect(answer).not.toContain(PASSWORD);
      expect(answer).not.toContain('socks-proxy.example');
    }
  });

  it('takes proxies: true as the provider’s own proxies, and false or [] as none', async () => {
    for (const proxies of [true, false, []])
      expect((await bb('POST', '/v1/sessions', { proxies })).status).toBe(201);
    expect(providerProxies()).toEqual([[{ type: 'browserbase' }], null, null]);
  });

  it('refuses a bad entry with a 400 in Browserbase’s shape naming the field, creating nothing', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [
        [{ type: 'external', server: 'http://proxy.example:99999', password: PASSWORD }],
        /proxies\.0\.server/,
      ],
      [[{ type: 'external', server: 'http://proxy.example:1', password: PASSWORD }], /proxies\.0\.password/],
      [[{ type: 'browserbase', geolocation: { country: 'Germany' } }], /proxies\.0\.geolocation\.country/],
      [[{ type: 'none' }, { type: 'tor' }], /proxies\.1\.type/],
      ['yes', /proxies/],
    ];
    for (const [proxies, message] of cases) {
      const res = await bb('POST', '/v1/sessions', { proxies });
      expect(res.status).toBe(400);
      const body = (await res.json()) as { statusCode: number; message: string };
      expect(body.statusCode).toBe(400);
      expect(body.message).toMatch(message);
      expect(JSON.stringify(body)).not.toContain(PASSWORD);
    }
    expect(providerProxies()).toEqual([]);
  });

  it('answers proxyBytes on the session and sums them in the project usage', async () => {
    const a = (await (await bb('POST', '/v1/sessions', {})).json()) as { id: string };
    const b = (await (await bb('POST', '/v1/sessions', {})).json()) as { id: string };
    const providerIdOf = async (id: string) =>
      (await t.sessions.findInProject(projectId, id))!.providerSessionId;
    await t.sessions.addProxyBytes([
      { providerSessionId: await providerIdOf(a.id), bytes: 2048 },
      { providerSessionId: await providerIdOf(b.id), bytes: 3_000_000_000 },
    ]);
    expect(
      ((await (await bb('GET', `/v1/sessions/${a.id}`)).json()) as { proxyBytes: number }).proxyBytes,
    ).toBe(2048);
    const usage = await bb('GET', `/v1/projects/${projectId}/usage`);
    expect(await usage.json()).toEqual({ browserMinutes: 0, proxyBytes: 3_000_002_048 });
  });
});
