import { assertProblem, createTestApp, type TestApp, type TestUser } from '@browserdeck/testing/adapters';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SessionJson } from './presentSession.ts';
import { SessionSchema, SessionStatsSchema } from './sessionSchemas.ts';

let t: TestApp;
let alice: TestUser;
let base: string;
let projectId: string;
beforeEach(async () => {
  t = await createTestApp();
  alice = await t.signUpAndIn('alice@example.com');
  const res = await t.request('/v1/projects', {
    method: 'POST',
    token: alice.accessToken,
    json: { name: 'P' },
  });
  projectId = ((await res.json()) as { id: string }).id;
  base = `/v1/browserbase/projects/${projectId}/sessions`;
});
afterEach(() => t.close());

const PASSWORD = 'pr0xy-pa55-7731';
const PROXIES = [
  {
    type: 'external',
    server: 'http://proxy.example:8080',
    username: 'proxy-user',
    password: PASSWORD,
    domainPattern: '\\.example\\.com$',
  },
  { type: 'none' },
];

const call = (method: string, path: string, json?: unknown) =>
  t.request(path, { method, token: alice.accessToken, ...(json === undefined ? {} : { json }) });

const providerRequests = () => t.provider.calls.flatMap((c) => (c.op === 'create' ? [c.request] : []));

describe('POST …/sessions with proxies', () => {
  it('passes them to the provider and answers 201 without them: no password in any answer or log', async () => {
    const res = await call('POST', base, { proxies: PROXIES });
    expect(res.status, await res.clone().text()).toBe(201);
    const session = (await res.json()) as SessionJson;
    expect(SessionSchema.strict().parse(session)).toEqual(session);
    expect(session.proxyBytes).toBe(0);
    expect(providerRequests().map((r) => r.proxies)).toEqual([PROXIES]);
    const answers = [
      JSON.stringify(session),
      await (await call('GET', `${base}/${session.id}`)).text(),
      await (await call('GET', base)).text(),
      await (await call('POST', `${base}/${session.id}:release`)).text(),
    ];
    for (const answer of answers) {
      expect(answer).not.toContain(PASSWORD);
      expect(answer).not.toContain('proxy.example');
      expect(answer).not.toMatch(/"proxies"/);
    }
    expect(`${t.rawLogs.join('\n')}${JSON.stringify(t.logs)}`).not.toContain(PASSWORD);
  });

  it.each<[string, unknown, string]>([
    ['a server without a port', [{ type: 'external', server: 'http://proxy.example' }], 'proxies.0.server'],
    [
      'a server with credentials',
      [{ type: 'external', server: 'http://u:p@proxy.example:1' }],
      'proxies.0.server',
    ],
    ['an unknown type', [{ type: 'residential' }], 'proxies.0.type'],
    ['an unknown field', [{ type: 'none', server: 'http://proxy.example:1' }], 'proxies.0.server'],
    ['a pattern that does not compile', [{ type: 'none', domainPattern: '([' }], 'proxies.0.domainPattern'],
    ['a password without a username', [{ ...PROXIES[0], username: undefined }], 'proxies.0.password'],
    ['eleven entries', Array.from({ length: 11 }, () => ({ type: 'none' })), 'proxies'],
    ['a bare boolean (the Browserbase dialect’s)', true, 'proxies'],
  ])('refuses %s with 400 naming the field, and starts nothing', async (_, proxies, path) => {
    const res = await call('POST', base, { proxies });
    const problem = await assertProblem(res, 400, 'validation_failed');
    expect(problem.errors?.map((e) => e.path)).toContain(path);
    expect(JSON.stringify(problem)).not.toContain(PASSWORD);
    expect(providerRequests()).toEqual([]);
  });

  it('counts the proxies in an Idempotency-Key’s body: another password is a 409', async () => {
    const headers = { 'Idempotency-Key': 'proxies-1' };
    const first = await t.request(base, {
      method: 'POST',
      token: alice.accessToken,
      headers,
      json: { proxies: PROXIES },
    });
    expect(first.status).toBe(201);
    const again = await t.request(base, {
      method: 'POST',
      token: alice.accessToken,
      headers,
      json: { proxies: PROXIES },
    });
    expect(again.status).toBe(201);
    const other = [{ ...PROXIES[0], password: 'another' }];
    const conflict = await t.request(base, {
      method: 'POST',
      token: alice.accessToken,
      headers,
      json: { proxies: other },
    });
    await assertProblem(conflict, 409, 'idempotency_key_reused');
    expect(providerRequests()).toHaveLength(1);
  });
});

describe('proxyBytes', () => {
  it('is returned on the session and summed in stats and the series, by creation bucket', async () => {
    const a = (await (await call('POST', base, {})).json()) as SessionJson;
    t.clock.advance(3600_000);
    // A fresh token: the clock moved past the first one's lifetime.
    const signIn = await t.request('/v1/auth/signin', {
      method: 'POST',
      json: { email: alice.email, password: alice.password },
    });
    alice = { ...alice, accessToken: ((await signIn.json()) as { access_token: string }).access_token };
    const b = (await (await call('POST', base, {})).json()) as SessionJson;
    await t.sessions.addProxyBytes([
      { providerSessionId: a.providerSessionId, bytes: 1500 },
      { providerSessionId: b.providerSessionId, bytes: 4_000_000_000 },
    ]);
    const read = (await (await call('GET', `${base}/${a.id}`)).json()) as SessionJson;
    expect(read.proxyBytes).toBe(1500);
    const listed = (await (await call('GET', base)).json()) as { sessions: SessionJson[] };
    expect(listed.sessions.map((s) => s.proxyBytes)).toEqual([4_000_000_000, 1500]);

    const res = await call(
      'GET',
      `${base}/dashboard/stats?interval=hour&from=2026-01-01T00:00:00Z&to=2026-01-01T02:00:00Z`,
    );
    expect(res.status).toBe(200);
    const stats = SessionStatsSchema.strict().parse(await res.json());
    expect(stats.totalProxyBytes).toBe(4_000_001_500);
    expect(stats.series?.map((bucket) => bucket.proxyBytes)).toEqual([1500, 4_000_000_000]);
  });
});
