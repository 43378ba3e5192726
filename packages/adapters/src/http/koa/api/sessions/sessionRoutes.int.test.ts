import { anExtension } from '@browserdeck/testing';
import { assertProblem, createTestApp, type TestApp, type TestUser } from '@browserdeck/testing/adapters';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OpenApiDocument } from '../../kernel/openapi/OpenApiDocument.ts';
import type { AgentJson } from '../agents/presentAgent.ts';
import type { SessionJson } from './presentSession.ts';
import { SessionSchema, SessionStatsSchema } from './sessionSchemas.ts';

let t: TestApp;
let alice: TestUser;
let projectId: string;
let base: string;
beforeEach(async () => {
  t = await createTestApp();
  alice = await t.signUpAndIn('alice@example.com');
  projectId = await newProject('Sessions');
  base = `/v1/browserbase/projects/${projectId}`;
});
afterEach(() => t.close());

const T0 = '2026-01-01T00:00:00.000Z';
const UNKNOWN = '0190b000-0000-7000-8000-00000000dead';

const call = (
  method: string,
  path: string,
  json?: unknown,
  init: { token?: string; headers?: Record<string, string> } = {},
) =>
  t.request(path, {
    method,
    token: init.token ?? alice.accessToken,
    ...(init.headers ? { headers: init.headers } : {}),
    ...(json === undefined ? {} : { json }),
  });

async function newProject(name: string, token = alice.accessToken): Promise<string> {
  const res = await t.request('/v1/projects', { method: 'POST', token, json: { name } });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

async function create(json: unknown = {}, headers?: Record<string, string>): Promise<SessionJson> {
  const res = await call('POST', `${base}/sessions`, json, headers ? { headers } : {});
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as SessionJson;
}

async function createAgent(json: unknown): Promise<AgentJson> {
  const res = await call('POST', `${base}/agents`, json);
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as AgentJson;
}

/** An extension stored in the project (its zip is a few bytes: the fake provider never opens it). */
async function givenExtension(): Promise<string> {
  const extension = anExtension({ projectId, name: 'Marker' });
  await t.extensions.add(extension, Uint8Array.from([0x50, 0x4b]));
  return extension.id;
}

/** A fresh access token after the clock moved past the old one's lifetime. */
async function signInAgain(user: TestUser): Promise<TestUser> {
  const res = await t.request('/v1/auth/signin', {
    method: 'POST',
    json: { email: user.email, password: user.password },
  });
  expect(res.status).toBe(200);
  return { ...user, accessToken: ((await res.json()) as { access_token: string }).access_token };
}

type Page = { sessions: SessionJson[]; total: number; limit: number; offset: number };
const list = async (query = ''): Promise<Page> =>
  (await (await call('GET', `${base}/sessions${query}`)).json()) as Page;

const creates = () => t.provider.calls.filter((c) => c.op === 'create').length;

describe('POST …/sessions', () => {
  it('starts a session with the defaults and answers 201 with the full resource', async () => {
    const session = await create();
    expect(SessionSchema.strict().parse(session)).toEqual(session);
    expect(session).toEqual({
      id: expect.any(String),
      providerSessionId: 'fake-1',
      providerProjectId: 'fake-project',
      status: 'RUNNING',
      connectUrl: 'wss://fake.invalid/connect/fake-1',
      seleniumRemoteUrl: 'https://fake.invalid/webdriver/fake-1',
      createdAt: T0,
      updatedAt: T0,
      startedAt: T0,
      endedAt: null,
      expiresAt: '2026-01-01T00:05:00.000Z',
      lastSyncedAt: T0,
      userMetadata: { script: '', env: {} },
      name: `Session ${T0}`,
      region: 'us-west-2',
      timeoutSec: 300,
      extensionId: null,
      contextId: null,
      agentId: null,
      provider: 'browserbase',
      metadata: {},
      keepAlive: true,
      viewport: null,
      proxyBytes: 0,
    });
    expect(await t.sessions.findInProject(projectId, session.id)).toMatchObject({ status: 'RUNNING' });
  });

  it('accepts no body at all, like {}', async () => {
    const res = await call('POST', `${base}/sessions`);
    expect(res.status).toBe(201);
    expect(((await res.json()) as SessionJson).timeoutSec).toBe(300);
  });

  it('uses every request field; script and env stay with us, not with the provider', async () => {
    const extensionId = await givenExtension();
    const session = await create({
      projectId: 'bb-project',
      name: '  Checkout run  ',
      script: 'await page.goto("https://example.com")',
      env: { API_KEY: 'secret-value', _X1: '' },
      region: 'eu-central-1',
      timeoutSec: 21_600,
      extensionId,
      contextId: 'ctx-1',
      agentId: null,
    });
    expect(session).toMatchObject({
      providerProjectId: 'bb-project',
      name: 'Checkout run',
      userMetadata: {
        script: 'await page.goto("https://example.com")',
        env: { API_KEY: 'secret-value', _X1: '' },
      },
      region: 'eu-central-1',
      timeoutSec: 21_600,
      extensionId,
      contextId: 'ctx-1',
      agentId: null,
    });
    expect(t.provider.calls).toEqual([
      {
        op: 'create',
        request: {
          sessionId: session.id,
          projectId,
          ownerId: alice.id,
          providerProjectId: 'bb-project',
          region: 'eu-central-1',
          timeoutSec: 21_600,
          contextId: 'ctx-1',
          // §5 sessions save into their context, and leave keepAlive and the viewport to the provider.
          contextPersist: true,
          extensionId,
          extension: {
            id: extensionId,
            name: 'Marker',
            archive: Uint8Array.from([0x50, 0x4b]),
            providerExtensionId: null,
          },
          keepAlive: null,
          viewport: null,
          proxies: null,
          record: null,
        },
      },
    ]);
    expect(JSON.stringify(t.provider.calls)).not.toContain('secret-value');
  });

  it("takes an agent's fields as defaults, request fields override, env merges over envVars", async () => {
    const agent = await createAgent({
      name: 'Scraper',
      script: 'agent script',
      envVars: { A: 'agent', B: 'agent' },
      providerProjectId: 'agent-project',
      contextId: 'agent-ctx',
      extensionId: await givenExtension(),
      region: 'ap-southeast-1',
      timeoutSec: 900,
    });
    const session = await create({
      agentId: agent.id,
      env: { B: 'request', C: 'request' },
      timeoutSec: 120,
      extensionId: null,
    });
    expect(session).toMatchObject({
      name: 'Scraper',
      providerProjectId: 'agent-project',
      userMetadata: { script: 'agent script', env: { A: 'agent', B: 'request', C: 'request' } },
      region: 'ap-southeast-1',
      timeoutSec: 120,
      contextId: 'agent-ctx',
      extensionId: null,
      agentId: agent.id,
    });
    const named = await create({ agentId: agent.id.toUpperCase(), name: 'Own name', script: '' });
    expect(named).toMatchObject({ name: 'Own name', agentId: agent.id, userMetadata: { script: '' } });
  });

  it('answers 404 agent_not_found for an unknown agent or one of another project, 409 for an inactive one', async () => {
    await assertProblem(await call('POST', `${base}/sessions`, { agentId: UNKNOWN }), 404, 'agent_not_found');
    const other = await newProject('Other');
    const foreign = await call('POST', `/v1/browserbase/projects/${other}/agents`, { name: 'Elsewhere' });
    const foreignId = ((await foreign.json()) as AgentJson).id;
    await assertProblem(
      await call('POST', `${base}/sessions`, { agentId: foreignId }),
      404,
      'agent_not_found',
    );
    const sleeping = await createAgent({ name: 'Sleeping', active: false });
    await assertProblem(
      await call('POST', `${base}/sessions`, { agentId: sleeping.id }),
      409,
      'agent_inactive',
    );
    expect(creates()).toBe(0);
  });

  it('answers 409 project_archived in an archived project; its sessions can still be read and released', async () => {
    const session = await create();
    await call('POST', `/v1/projects/${projectId}:archive`);
    await assertProblem(await call('POST', `${base}/sessions`, {}), 409, 'project_archived');
    expect(creates()).toBe(1);
    expect((await call('GET', `${base}/sessions`)).status).toBe(200);
    expect((await call('GET', `${base}/sessions/${session.id}`)).status).toBe(200);
    expect((await call('GET', `${base}/sessions/${session.id}/logs`)).status).toBe(200);
    expect((await call('GET', `${base}/sessions/dashboard/stats`)).status).toBe(200);
    expect((await call('POST', `${base}/sessions/${session.id}:release`)).status).toBe(200);
  });

  it('passes a provider 429 on with its Retry-After and stores nothing', async () => {
    t.provider.failNext('create', 'provider_rate_limited', 7);
    const res = await call('POST', `${base}/sessions`, { name: 'Too many' });
    expect(res.headers.get('retry-after')).toBe('7');
    await assertProblem(res, 429, 'provider_rate_limited');
    const list = (await (await call('GET', `${base}/sessions`)).json()) as { total: number };
    expect(list.total).toBe(0);
    expect((await t.sessions.list(projectId, { limit: 100, offset: 0 })).total).toBe(0);
  });

  it.each([
    ['provider_error', 502],
    ['provider_unavailable', 503],
    ['provider_timeout', 504],
  ] as const)('maps a provider %s to %i and stores nothing', async (code, status) => {
    t.provider.failNext('create', code);
    await assertProblem(await call('POST', `${base}/sessions`, {}), status, code);
    expect((await t.sessions.list(projectId, { limit: 100, offset: 0 })).total).toBe(0);
  });

  it('releases the browser again when the session cannot be stored (no orphan), answering 500', async () => {
    t.sessions.failNextAdd = new Error('database went away');
    await assertProblem(await call('POST', `${base}/sessions`, {}), 500, 'internal');
    expect(t.provider.calls.map((c) => c.op)).toEqual(['create', 'release']);
    expect(t.provider.running).toEqual([]);
  });
});

describe('Idempotency-Key', () => {
  it('replays the first answer for the same key and body, starting one browser', async () => {
    const headers = { 'Idempotency-Key': 'order-42 retry' };
    const res1 = await call('POST', `${base}/sessions`, { name: 'Once', env: { A: '1' } }, { headers });
    const first = await res1.json();
    expect(res1.status).toBe(201);
    expect(res1.headers.get('idempotent-replayed')).toBeNull();
    t.clock.advance(60_000);
    const res2 = await call('POST', `${base}/sessions`, { env: { A: '1' }, name: 'Once' }, { headers });
    expect(res2.status).toBe(201);
    expect(res2.headers.get('idempotent-replayed')).toBe('true');
    expect(await res2.json()).toEqual(first);
    expect(creates()).toBe(1);
    expect(((await (await call('GET', `${base}/sessions`)).json()) as { total: number }).total).toBe(1);
  });

  it('replays the first answer even after the session was released since', async () => {
    const headers = { 'Idempotency-Key': 'release-then-retry' };
    const res1 = await call('POST', `${base}/sessions`, { name: 'Short' }, { headers });
    const first = (await res1.json()) as { id: string; status: string };
    t.clock.advance(5_000);
    expect((await call('POST', `${base}/sessions/${first.id}:release`)).status).toBe(200);
    const res2 = await call('POST', `${base}/sessions`, { name: 'Short' }, { headers });
    expect(res2.status).toBe(201);
    expect(await res2.json()).toEqual(first);
    expect(first.status).toBe('RUNNING');
    const now = (await (await call('GET', `${base}/sessions/${first.id}`)).json()) as { status: string };
    expect(now.status).toBe('COMPLETED');
    expect(creates()).toBe(1);
  });

  it('answers 409 idempotency_key_reused for the same key with another body', async () => {
    const headers = { 'Idempotency-Key': 'k1' };
    await create({ name: 'First' }, headers);
    await assertProblem(
      await call('POST', `${base}/sessions`, { name: 'Second' }, { headers }),
      409,
      'idempotency_key_reused',
    );
    expect(creates()).toBe(1);
  });

  it('lets a retry go ahead after the provider refused the first attempt', async () => {
    const headers = { 'Idempotency-Key': 'k2' };
    t.provider.failNext('create', 'provider_unavailable');
    await assertProblem(await call('POST', `${base}/sessions`, {}, { headers }), 503, 'provider_unavailable');
    await create({}, headers);
    expect(creates()).toBe(2);
  });

  it.each([
    ['empty', ''],
    ['too long', 'k'.repeat(256)],
    ['not printable ASCII', 'a\tb'],
    ['not ASCII', 'clé'],
  ])('answers 400 for a key that is %s, before calling the provider', async (_label, key) => {
    const res = await fetch(`${t.baseUrl}${base}/sessions`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${alice.accessToken}`,
        'Content-Type': 'application/json',
        'Idempotency-Key': Buffer.from(key, 'utf8').toString('latin1'),
      },
      body: '{}',
    });
    const problem = await assertProblem(res, 400, 'validation_failed');
    expect(problem.errors?.map((e) => e.path)).toEqual(['Idempotency-Key']);
    expect(t.provider.calls).toEqual([]);
  });

  it('accepts a key of 255 printable characters', async () => {
    await create({}, { 'Idempotency-Key': `~ ${'k'.repeat(253)}` });
  });
});

describe('POST …/sessions validation', () => {
  const bigScript = 'é'.repeat(131_073); // 262 146 bytes in UTF-8, though only 131 073 characters
  const manyKeys = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`K${i}`, 'v']));
  it.each([
    ['an unknown field (timeout instead of timeoutSec)', { timeout: 300 }, 'timeout'],
    ['an empty projectId', { projectId: '' }, 'projectId'],
    ['a projectId over 128 characters', { projectId: 'p'.repeat(129) }, 'projectId'],
    ['an empty name after trimming', { name: '   ' }, 'name'],
    ['a name over 200 characters', { name: 'n'.repeat(201) }, 'name'],
    ['a name that is not a string', { name: 7 }, 'name'],
    ['a script over 256 KiB as UTF-8', { script: bigScript }, 'script'],
    ['env that is not an object', { env: ['A=1'] }, 'env'],
    ['an env key breaking the pattern', { env: { '1BAD': 'x' } }, 'env.1BAD'],
    ['an env value that is not a string', { env: { A: 1 } }, 'env.A'],
    ['an env value over 8 KiB', { env: { A: 'v'.repeat(8193) } }, 'env.A'],
    ['more than 100 env keys', { env: manyKeys }, 'env'],
    [
      'an env key __proto__ (as JSON sends it)',
      JSON.parse('{"env":{"__proto__":"x","A":"1"}}'),
      'env.__proto__',
    ],
    ['a top-level __proto__', JSON.parse('{"__proto__":{"name":"x"}}'), '__proto__'],
    ['a region of another provider', { region: 'local' }, 'region'],
    ['a region that is not a string', { region: 1 }, 'region'],
    ['timeoutSec below 60', { timeoutSec: 59 }, 'timeoutSec'],
    ['timeoutSec above 21600', { timeoutSec: 21_601 }, 'timeoutSec'],
    ['a fractional timeoutSec', { timeoutSec: 300.5 }, 'timeoutSec'],
    ['timeoutSec as a string', { timeoutSec: '300' }, 'timeoutSec'],
    ['an extensionId that is not a string', { extensionId: 42 }, 'extensionId'],
    ['a contextId over 128 characters', { contextId: 'c'.repeat(129) }, 'contextId'],
    ['an agentId that is not a UUID', { agentId: 'agent-1' }, 'agentId'],
    ['a body that is not an object', ['name'], ''],
  ])('answers 400 naming the field for %s, without calling the provider', async (_label, json, path) => {
    const problem = await assertProblem(
      await call('POST', `${base}/sessions`, json),
      400,
      'validation_failed',
    );
    expect(problem.errors?.map((e) => e.path)).toContain(path);
    expect(t.provider.calls).toEqual([]);
  });

  it('accepts the limits themselves', async () => {
    const keys = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`K${i}`, 'v'.repeat(8192)]));
    const session = await create({
      name: 'n'.repeat(200),
      projectId: 'p'.repeat(128),
      env: keys,
      timeoutSec: 60,
    });
    expect(Object.keys(session.userMetadata.env)).toHaveLength(100);
    const scripted = await create({ script: 'é'.repeat(128 * 1024), timeoutSec: 21_600 });
    expect(scripted.userMetadata.script).toHaveLength(128 * 1024);
  });
});

describe('GET …/sessions', () => {
  it('lists newest first with total, limit and offset; filters by status; no provider calls', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push((await create({ name: `S${i}` })).id);
      t.clock.advance(1000);
    }
    await call('POST', `${base}/sessions/${ids[1]}:release`);
    const callsBefore = t.provider.calls.length;
    const page = await list();
    expect(page).toMatchObject({ total: 3, limit: 20, offset: 0 });
    expect(page.sessions.map((s) => s.id)).toEqual([ids[2], ids[1], ids[0]]);
    expect(SessionSchema.strict().parse(page.sessions[0])).toEqual(page.sessions[0]);
    const second = await list('?limit=1&offset=1');
    expect(second).toMatchObject({ total: 3, limit: 1, offset: 1 });
    expect(second.sessions.map((s) => s.id)).toEqual([ids[1]]);
    const done = await list('?status=COMPLETED');
    expect(done).toMatchObject({ total: 1, sessions: [{ id: ids[1], status: 'COMPLETED' }] });
    const past = await list('?offset=10');
    expect(past).toEqual({ sessions: [], total: 3, limit: 20, offset: 10 });
    const farthest = await list('?offset=999999999999999');
    expect(farthest).toEqual({ sessions: [], total: 3, limit: 20, offset: 999_999_999_999_999 });
    expect(t.provider.calls.length).toBe(callsBefore);
  });

  it.each([
    ['status=running', 'status'],
    ['status=DONE', 'status'],
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=abc', 'limit'],
    ['limit=1.5', 'limit'],
    ['limit=1e1', 'limit'],
    ['limit=', 'limit'],
    ['offset=-1', 'offset'],
    ['offset=0.5', 'offset'],
    ['offset=9007199254740991', 'offset'],
    ['limit=5&limit=6', 'limit'],
  ])('answers 400 for %s', async (query, path) => {
    const problem = await assertProblem(
      await call('GET', `${base}/sessions?${query}`),
      400,
      'validation_failed',
    );
    expect(problem.errors?.map((e) => e.path)).toEqual([path]);
  });

  it('names the range in the message, also for an offset past 15 digits', async () => {
    const problem = await assertProblem(
      await call('GET', `${base}/sessions?offset=9007199254740991`),
      400,
      'validation_failed',
    );
    expect(problem.errors).toEqual([
      { path: 'offset', message: 'must be an integer from 0 to 999999999999999' },
    ]);
  });

  it('accepts limit=100 and ignores unknown parameters', async () => {
    const res = await call('GET', `${base}/sessions?limit=100&_=123`);
    expect(await res.json()).toEqual({ sessions: [], total: 0, limit: 100, offset: 0 });
  });
});

describe('GET …/sessions/{session_id}', () => {
  it('refreshes an active session from the provider and stores the change; terminal stays final', async () => {
    const session = await create();
    t.clock.advance(30_000);
    t.provider.setStatus(session.providerSessionId, 'TIMED_OUT');
    const res = await call('GET', `${base}/sessions/${session.id}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-sync-error')).toBeNull();
    const ended = (await res.json()) as SessionJson;
    expect(ended).toMatchObject({
      status: 'TIMED_OUT',
      endedAt: '2026-01-01T00:00:30.000Z',
      updatedAt: '2026-01-01T00:00:30.000Z',
      lastSyncedAt: '2026-01-01T00:00:30.000Z',
    });
    expect((await t.sessions.findInProject(projectId, session.id))?.status).toBe('TIMED_OUT');
    t.provider.setStatus(session.providerSessionId, 'RUNNING');
    const gets = t.provider.calls.filter((c) => c.op === 'get').length;
    const again = (await (await call('GET', `${base}/sessions/${session.id}`)).json()) as SessionJson;
    expect(again).toMatchObject({ status: 'TIMED_OUT', endedAt: ended.endedAt });
    expect(t.provider.calls.filter((c) => c.op === 'get').length).toBe(gets);
  });

  it('marks a session the provider no longer knows COMPLETED', async () => {
    const session = await create();
    t.provider.forget(session.providerSessionId);
    const gone = (await (await call('GET', `${base}/sessions/${session.id}`)).json()) as SessionJson;
    expect(gone).toMatchObject({ status: 'COMPLETED', endedAt: T0 });
  });

  it('answers 200 with the stored state and X-Sync-Error when the provider cannot be reached', async () => {
    const session = await create();
    t.clock.advance(5000);
    t.provider.failNext('get', 'provider_unavailable');
    const res = await call('GET', `${base}/sessions/${session.id}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-sync-error')).toBe('provider_unavailable');
    expect(await res.json()).toEqual(session);
    t.provider.failNext('get', 'provider_timeout');
    const late = await call('GET', `${base}/sessions/${session.id}`);
    expect(late.headers.get('x-sync-error')).toBe('provider_timeout');
  });

  it('answers 404 for an unknown id and 400 for an id that is not a UUID', async () => {
    await assertProblem(await call('GET', `${base}/sessions/${UNKNOWN}`), 404, 'not_found');
    const problem = await assertProblem(await call('GET', `${base}/sessions/nope`), 400, 'validation_failed');
    expect(problem.errors).toEqual([{ path: 'session_id', message: 'must be a UUID' }]);
  });

  it("answers 404 for a session of another of the caller's projects", async () => {
    const session = await create();
    const other = await newProject('Other');
    await assertProblem(
      await call('GET', `/v1/browserbase/projects/${other}/sessions/${session.id}`),
      404,
      'not_found',
    );
  });
});

describe('POST …/sessions/{session_id}:release', () => {
  it('ends the session at the provider; idempotent, a second release changes nothing', async () => {
    const session = await create();
    t.clock.advance(90_000);
    const res = await call('POST', `${base}/sessions/${session.id}:release`);
    expect(res.status).toBe(200);
    const released = (await res.json()) as SessionJson;
    expect(released).toMatchObject({
      id: session.id,
      status: 'COMPLETED',
      endedAt: '2026-01-01T00:01:30.000Z',
    });
    expect(t.provider.running).toEqual([]);
    t.clock.advance(1000);
    const again = await call('POST', `${base}/sessions/${session.id}:release`, {});
    expect(await again.json()).toEqual(released);
    expect(t.provider.calls.filter((c) => c.op === 'release')).toHaveLength(1);
  });

  it('keeps the session active when the provider fails, answering the provider error', async () => {
    const session = await create();
    t.provider.failNext('release', 'provider_error');
    await assertProblem(await call('POST', `${base}/sessions/${session.id}:release`), 502, 'provider_error');
    expect((await t.sessions.findInProject(projectId, session.id))?.status).toBe('RUNNING');
  });

  it('answers 405 for GET …:release, 404 for an unknown action and 400 for a body field', async () => {
    const session = await create();
    const wrong = await call('GET', `${base}/sessions/${session.id}:release`);
    expect(wrong.headers.get('allow')).toBe('POST');
    await assertProblem(wrong, 405, 'method_not_allowed');
    await assertProblem(await call('POST', `${base}/sessions/${session.id}:explode`), 404, 'not_found');
    const problem = await assertProblem(
      await call('POST', `${base}/sessions/${session.id}:release`, { force: true }),
      400,
      'validation_failed',
    );
    expect(problem.errors?.map((e) => e.path)).toEqual(['force']);
  });
});

describe('GET …/sessions/{session_id}/logs', () => {
  it('pages the provider logs with opaque cursors; nextCursor is null on the last page', async () => {
    const session = await create();
    const entries = Array.from({ length: 5 }, (_, i) => ({
      timestamp: 1_767_225_600_000 + i,
      method: 'Runtime.consoleAPICalled',
      pageId: 0,
      frameId: `frame-${i}`,
      request: { params: { i } },
    }));
    for (const entry of entries) t.provider.addLog(session.providerSessionId, entry);
    const all = await (await call('GET', `${base}/sessions/${session.id}/logs`)).json();
    expect(all).toEqual({ logs: entries, nextCursor: null });
    const seen: unknown[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor === null ? '?limit=2' : `?limit=2&cursor=${encodeURIComponent(cursor)}`;
      const page = (await (await call('GET', `${base}/sessions/${session.id}/logs${query}`)).json()) as {
        logs: unknown[];
        nextCursor: string | null;
      };
      seen.push(...page.logs);
      cursor = page.nextCursor;
      pages++;
    } while (cursor !== null);
    expect(pages).toBe(3);
    expect(seen).toEqual(entries);
  });

  it('answers 400 for a forged cursor, a cursor of another session and a bad limit', async () => {
    const session = await create();
    const other = await create();
    for (const { providerSessionId } of [session, other]) {
      for (let i = 0; i < 3; i++)
        t.provider.addLog(providerSessionId, {
          timestamp: i,
          method: 'Network.requestWillBeSent',
          pageId: 0,
        });
    }
    const first = (await (await call('GET', `${base}/sessions/${other.id}/logs?limit=1`)).json()) as {
      nextCursor: string;
    };
    const path = `${base}/sessions/${session.id}/logs`;
    for (const cursor of ['abc', '1.abcdef', first.nextCursor]) {
      const problem = await assertProblem(
        await call('GET', `${path}?cursor=${encodeURIComponent(cursor)}`),
        400,
        'validation_failed',
      );
      expect(problem.errors?.map((e) => e.path)).toEqual(['cursor']);
    }
    for (const limit of ['0', '501', 'x']) {
      const problem = await assertProblem(
        await call('GET', `${path}?limit=${limit}`),
        400,
        'validation_failed',
      );
      expect(problem.errors?.map((e) => e.path)).toEqual(['limit']);
    }
    expect((await call('GET', `${path}?limit=500`)).status).toBe(200);
  });
});

describe('GET …/sessions/dashboard/stats', () => {
  it('answers zeros for a project without sessions', async () => {
    const res = await call('GET', `${base}/sessions/dashboard/stats`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      total: 0,
      byStatus: { PENDING: 0, RUNNING: 0, COMPLETED: 0, ERROR: 0, TIMED_OUT: 0 },
      createdLast24h: 0,
      avgDurationSec: 0,
      totalBrowserSec: 0,
      totalProxyBytes: 0,
    });
  });

  it('counts by status, the last 24 h, mean duration and browser time; dashboard is no session id', async () => {
    const old = await create({ name: 'old' });
    t.clock.advance(60_000);
    await call('POST', `${base}/sessions/${old.id}:release`); // ran 60 s
    t.clock.advance(25 * 3600_000);
    alice = await signInAgain(alice);
    const errored = await create({ name: 'errored' });
    t.clock.advance(120_000);
    t.provider.setStatus(errored.providerSessionId, 'ERROR');
    await call('GET', `${base}/sessions/${errored.id}`); // ran 120 s
    await create({ name: 'running' }); // runs from now
    t.clock.advance(30_000);
    const calls = t.provider.calls.length;
    const res = await call('GET', `${base}/sessions/dashboard/stats`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      total: 3,
      byStatus: { PENDING: 0, RUNNING: 1, COMPLETED: 1, ERROR: 1, TIMED_OUT: 0 },
      createdLast24h: 2,
      avgDurationSec: 90,
      totalBrowserSec: 60 + 120 + 30,
      totalProxyBytes: 0,
    });
    expect(t.provider.calls.length).toBe(calls);
  });

  describe('over time (interval, from, to)', () => {
    type Stats = { totalBrowserSec: number; series?: Bucket[] };
    type Bucket = {
      start: string;
      created: number;
      completed: number;
      errored: number;
      timedOut: number;
      browserSec: number;
      proxyBytes: number;
    };
    const stats = async (query: string): Promise<Stats> => {
      const res = await call('GET', `${base}/sessions/dashboard/stats${query}`);
      expect(res.status, await res.clone().text()).toBe(200);
      const body = (await res.json()) as Stats;
      expect(SessionStatsSchema.strict().parse(body)).toEqual(body);
      return body;
    };
    const bucket = (start: string, fields: Partial<Bucket> = {}): Bucket => ({
      start,
      created: 0,
      completed: 0,
      errored: 0,
      timedOut: 0,
      browserSec: 0,
      proxyBytes: 0,
      ...fields,
    });
    const HOUR_MS = 3600_000;

    /** 00:00 A starts; 01:30 A released, B and C start; 02:10 C fails; now 02:15 (T0's day). */
    async function givenThreeSessions(): Promise<void> {
      const a = await create({ name: 'a' });
      t.clock.advance(90 * 60_000);
      alice = await signInAgain(alice);
      await call('POST', `${base}/sessions/${a.id}:release`);
      await create({ name: 'b' });
      const c = await create({ name: 'c' });
      t.clock.advance(40 * 60_000);
      alice = await signInAgain(alice);
      t.provider.setStatus(c.providerSessionId, 'ERROR');
      expect((await call('GET', `${base}/sessions/${c.id}`)).status).toBe(200);
      t.clock.advance(5 * 60_000);
    }

    it('adds series per UTC hour: created, final statuses by endedAt, browser time cut at the edges', async () => {
      await givenThreeSessions();
      const body = await stats('?interval=hour&from=2026-01-01T00:00:00Z&to=2026-01-01T03:00:00.000Z');
      expect(body.series).toEqual([
        bucket('2026-01-01T00:00:00.000Z', { created: 1, browserSec: 3600 }),
        bucket('2026-01-01T01:00:00.000Z', { created: 2, completed: 1, browserSec: 1800 * 3 }),
        bucket('2026-01-01T02:00:00.000Z', { errored: 1, browserSec: 900 + 600 }),
      ]);
      expect(body.totalBrowserSec).toBe(3600 + 5400 + 1500);
      // A time zone offset names the same instant: to = 02:00Z ends the series before that hour.
      expect(
        (await stats('?interval=hour&from=2026-01-01T00:30:00Z&to=2026-01-01T04:00:00%2B02:00')).series,
      ).toEqual(body.series?.slice(0, 2));
      // Without interval the answer is as before: no series key.
      expect(Object.keys(await stats(''))).not.toContain('series');
    });

    it('defaults to now and 24 hours back (hour) or 30 days (day), floored, empty buckets as zeros', async () => {
      await givenThreeSessions();
      const hourly = (await stats('?interval=hour')).series ?? [];
      expect(hourly).toHaveLength(25);
      expect(hourly[0]).toEqual(bucket('2025-12-31T02:00:00.000Z'));
      expect(hourly.slice(0, 22).every((b) => b.created === 0 && b.browserSec === 0)).toBe(true);
      expect(hourly.map((b) => b.start)).toEqual(
        Array.from({ length: 25 }, (_, i) =>
          new Date(Date.parse('2025-12-31T02:00:00Z') + i * HOUR_MS).toISOString(),
        ),
      );
      expect(hourly.at(-1)).toEqual(bucket('2026-01-01T02:00:00.000Z', { errored: 1, browserSec: 1500 }));

      const daily = (await stats('?interval=day')).series ?? [];
      expect(daily).toHaveLength(31);
      expect(daily[0]?.start).toBe('2025-12-02T00:00:00.000Z');
      expect(daily.at(-1)).toEqual(
        bucket('2026-01-01T00:00:00.000Z', { created: 3, completed: 1, errored: 1, browserSec: 10_500 }),
      );
    });

    it('answers at most 2000 buckets', async () => {
      const from = new Date(Date.parse('2026-01-01T00:00:00Z') - 2000 * HOUR_MS).toISOString();
      const series = (await stats(`?interval=hour&from=${from}&to=2026-01-01T00:00:00Z`)).series ?? [];
      expect(series).toHaveLength(2000);
      expect(series[0]).toEqual(bucket(from));
    });

    it('refuses a bad query with 400 validation_failed naming the field', async () => {
      const cases: Array<[string, string[]]> = [
        ['?from=2025-12-31T00:00:00Z', ['from']],
        ['?to=2025-12-31T00:00:00Z', ['to']],
        ['?from=2025-12-30T00:00:00Z&to=2025-12-31T00:00:00Z', ['from', 'to']],
        ['?interval=week', ['interval']],
        ['?interval=HOUR', ['interval']],
        ['?interval=hour&interval=day', ['interval']],
        ['?interval=hour&from=yesterday', ['from']],
        ['?interval=hour&from=2025-12-31T00:00:00', ['from']],
        ['?interval=day&to=2025-13-01T00:00:00Z', ['to']],
        ['?interval=hour&from=2026-01-01T00:00:00Z', ['from']],
        ['?interval=hour&from=2026-01-01T00:00:00.000Z&to=2025-12-31T00:00:00Z', ['from']],
        ['?interval=day&from=2026-01-01T12:00:00Z&to=2026-01-01T12:00:00Z', ['from']],
        ['?interval=hour&from=2025-01-01T00:00:00Z', ['from']],
        ['?interval=day&from=2000-01-01T00:00:00Z', ['from']],
      ];
      for (const [query, fields] of cases) {
        const res = await call('GET', `${base}/sessions/dashboard/stats${query}`);
        const problem = await assertProblem(res, 400, 'validation_failed');
        expect(
          problem.errors?.map((e) => e.path),
          query,
        ).toEqual(fields);
      }
      const tooLong = await call(
        'GET',
        `${base}/sessions/dashboard/stats?interval=hour&from=2025-10-01T00:00:00Z&to=2026-01-01T00:00:00Z`,
      );
      expect((await assertProblem(tooLong, 400, 'validation_failed')).errors).toEqual([
        { path: 'from', message: 'must be within 2000 hours of to (this span holds 2208 hour buckets)' },
      ]);
    });
  });
});

describe('provider segment, ownership and authentication', () => {
  it('accepts the configured provider name and the alias cloudbrowser for the same sessions', async () => {
    const session = await create();
    const alias = `/v1/cloudbrowser/projects/${projectId}/sessions`;
    const res = await call('GET', `${alias}/${session.id}`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as SessionJson).id).toBe(session.id);
    expect((await call('POST', alias, {})).status).toBe(201);
    expect((await call('GET', `/v1/CloudBrowser/projects/${projectId}/sessions`)).status).toBe(200);
  });

  it('answers 404 not_found for any other provider segment, before authentication', async () => {
    const session = await create();
    for (const provider of ['other', 'local', 'fake']) {
      const prefix = `/v1/${provider}/projects/${projectId}/sessions`;
      for (const [method, path] of [
        ['POST', prefix],
        ['GET', prefix],
        ['GET', `${prefix}/dashboard/stats`],
        ['GET', `${prefix}/${session.id}`],
        ['POST', `${prefix}/${session.id}:release`],
        ['GET', `${prefix}/${session.id}/logs`],
      ] as const) {
        await assertProblem(await call(method, path, method === 'POST' ? {} : undefined), 404, 'not_found');
        await assertProblem(await t.request(path, { method }), 404, 'not_found');
      }
    }
    expect(creates()).toBe(1);
  });

  it('works with a provider configured as local', async () => {
    await t.close();
    t = await createTestApp({ providerName: 'local', regions: ['local'] });
    alice = await t.signUpAndIn('alice@example.com');
    const id = await newProject('Local');
    const res = await call('POST', `/v1/local/projects/${id}/sessions`, {});
    expect(await res.json()).toMatchObject({ provider: 'local', region: 'local' });
    await assertProblem(await call('GET', `/v1/browserbase/projects/${id}/sessions`), 404, 'not_found');
    const doc = (await (await t.request('/openapi.json')).json()) as OpenApiDocument;
    const provider = doc.paths['/v1/{provider}/projects/{project_id}/sessions']?.post?.parameters[0];
    expect(provider).toMatchObject({
      name: 'provider',
      in: 'path',
      schema: { enum: ['local', 'cloudbrowser'] },
    });
  });

  it("answers 404 on every session route for another user's project, calling no provider", async () => {
    const session = await create();
    const bob = await t.signUpAndIn('bob@example.com');
    const calls = t.provider.calls.length;
    for (const [method, path] of [
      ['POST', `${base}/sessions`],
      ['GET', `${base}/sessions`],
      ['GET', `${base}/sessions/dashboard/stats`],
      ['GET', `${base}/sessions/${session.id}`],
      ['POST', `${base}/sessions/${session.id}:release`],
      ['GET', `${base}/sessions/${session.id}/logs`],
    ] as const) {
      const json = method === 'POST' ? {} : undefined;
      await assertProblem(await call(method, path, json, { token: bob.accessToken }), 404, 'not_found');
    }
    expect(t.provider.calls.length).toBe(calls);
    expect((await t.sessions.findInProject(projectId, session.id))?.status).toBe('RUNNING');
  });

  it('requires a bearer token on every session route', async () => {
    for (const [method, path] of [
      ['POST', `${base}/sessions`],
      ['GET', `${base}/sessions`],
      ['GET', `${base}/sessions/dashboard/stats`],
      ['GET', `${base}/sessions/${UNKNOWN}`],
      ['POST', `${base}/sessions/${UNKNOWN}:release`],
      ['GET', `${base}/sessions/${UNKNOWN}/logs`],
    ] as const) {
      await assertProblem(await t.request(path, { method }), 401, 'unauthorized');
    }
  });

  it('documents every session route once, under the {provider} prefix', async () => {
    const doc = (await (await t.request('/openapi.json')).json()) as OpenApiDocument;
    const prefix = '/v1/{provider}/projects/{project_id}/sessions';
    expect(Object.keys(doc.paths[prefix] ?? {}).sort()).toEqual(['get', 'post']);
    expect(Object.keys(doc.paths[`${prefix}/{session_id}`] ?? {})).toEqual(['get']);
    expect(Object.keys(doc.paths[`${prefix}/{session_id}:release`] ?? {})).toEqual(['post']);
    expect(Object.keys(doc.paths[`${prefix}/{session_id}/logs`] ?? {})).toEqual(['get']);
    expect(Object.keys(doc.paths[`${prefix}/dashboard/stats`] ?? {})).toEqual(['get']);
    expect(Object.keys(doc.paths).filter((p) => p.includes('cloudbrowser'))).toEqual([]);
    const create = doc.paths[prefix]?.post;
    expect(create?.parameters.map((p) => p.name)).toEqual(['provider', 'project_id', 'Idempotency-Key']);
    expect(create?.parameters[0]).toMatchObject({ schema: { enum: ['browserbase', 'cloudbrowser'] } });
    expect(create?.requestBody).toMatchObject({
      required: false,
      content: {
        'application/json': {
          schema: {
            additionalProperties: false,
            properties: {
              name: { maxLength: 200 },
              timeoutSec: { type: 'integer', minimum: 60, maximum: 21_600 },
              env: { propertyNames: { pattern: '^[A-Za-z_][A-Za-z0-9_]*$' } },
            },
          },
        },
      },
    });
    expect(create?.responses['429']).toMatchObject({ 'x-error-codes': ['provider_rate_limited'] });
    expect(doc.paths[`${prefix}/{session_id}`]?.get?.responses['200']).toHaveProperty('headers.X-Sync-Error');
    expect(doc.paths[prefix]?.get?.parameters.map((p) => p.name)).toEqual([
      'provider',
      'project_id',
      'status',
      'q',
      'limit',
      'offset',
    ]);
  });
});
