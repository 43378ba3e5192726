import {
  createTestApp,
  type TestApp,
  type TestAppOptions,
  type TestUser,
} from '@browserdeck/testing/adapters';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

let t: TestApp;
let alice: TestUser;
let projectId: string;
let key: string;

/** A request as Browserbase's SDK sends it: the key in X-BB-API-Key. */
const bb = (method: string, path: string, json?: unknown, apiKey = key) =>
  t.request(path, { method, headers: { 'X-BB-API-Key': apiKey }, ...(json === undefined ? {} : { json }) });

async function newKey(user: TestUser, project: string): Promise<string> {
  const res = await t.request(`/v1/projects/${project}/api-keys`, {
    method: 'POST',
    token: user.accessToken,
    json: { name: 'sdk' },
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { key: string }).key;
}

/** A test app with Alice, her project and its key (`options` for the app). */
async function start(options: TestAppOptions = {}): Promise<void> {
  t = await createTestApp(options);
  alice = await t.signUpAndIn('alice@example.com');
  const res = await t.request('/v1/projects', {
    method: 'POST',
    token: alice.accessToken,
    json: { name: 'Shop' },
  });
  projectId = ((await res.json()) as { id: string }).id;
  key = await newKey(alice, projectId);
}

beforeEach(() => start());
afterEach(() => t.close());

/** Browserbase's error body. */
async function expectBrowserbaseError(res: Response, status: number, message: RegExp) {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  const body = (await res.json()) as Record<string, unknown>;
  expect(body).toMatchObject({ statusCode: status, error: expect.any(String), code: expect.any(String) });
  expect(body.message).toMatch(message);
  return body;
}

describe('the Browserbase-compatible API', () => {
  it('creates a session in Browserbase’s shape, stored as a §5 session and sent to the provider', async () => {
    const res = await bb('POST', '/v1/sessions', {
      projectId,
      timeout: 120,
      region: 'eu-central-1',
      keepAlive: true,
      userMetadata: { team: 'checkout' },
      browserSettings: { viewport: { width: 800, height: 600 }, solveCaptchas: false, recordSession: false },
    });
    expect(res.status, await res.clone().text()).toBe(201);
    const session = (await res.json()) as Record<string, unknown>;
    expect(session).toMatchObject({
      projectId,
      status: 'RUNNING',
      region: 'eu-central-1',
      keepAlive: true,
      proxyBytes: 0,
      contextId: null,
      userMetadata: { team: 'checkout' },
      endedAt: null,
    });
    expect(session.connectUrl).toEqual(expect.any(String));
    const created = t.provider.calls.filter((call) => call.op === 'create');
    expect(created).toHaveLength(1);
    expect(created[0] && 'request' in created[0] ? created[0].request : undefined).toMatchObject({
      timeoutSec: 120,
      region: 'eu-central-1',
      projectId,
    });
    const stored = await t.sessions.findInProject(projectId, session.id as string);
    expect(stored).toMatchObject({ timeoutSec: 120, metadata: { team: 'checkout' } });

    const native = await t.request(`/v1/browserbase/projects/${projectId}/sessions`, {
      token: alice.accessToken,
    });
    expect(((await native.json()) as { total: number }).total).toBe(1);
  });

  it('refuses options it cannot honour with a 400 naming them, creating nothing', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ proxies: [{ type: 'external', server: 'http://proxy.example' }] }, /proxies\.0\.server/],
      [{ proxySettings: { caCertificates: ['cert-1'] } }, /proxySettings\.caCertificates/],
      [{ browserSettings: { solveCaptchas: true } }, /browserSettings\.solveCaptchas/],
      [{ browserSettings: { advancedStealth: true } }, /browserSettings\.advancedStealth/],
      [{ browserSettings: { os: 'mac' } }, /browserSettings\.os/],
      [{ browserSettings: { logSession: false } }, /browserSettings\.logSession/],
      [{ timeout: 30 }, /timeout/],
      [{ region: 'mars-1' }, /region/],
      [{ sessionName: 'x' }, /sessionName/],
      // §5's metadata rule: at most 8 KiB of JSON ({"k":"…"} is 8 bytes around the value).
      [
        { userMetadata: { k: 'x'.repeat(8185) } },
        /userMetadata: must be a JSON object of at most 8192 bytes/,
      ],
      [{ browserSettings: { viewport: { width: 7681 } } }, /browserSettings\.viewport\.width/],
    ];
    for (const [body, message] of cases) {
      await expectBrowserbaseError(await bb('POST', '/v1/sessions', body), 400, message);
    }
    expect(t.provider.calls.filter((call) => call.op === 'create')).toHaveLength(0);
  });

  it('refuses an extensionId the provider cannot load (400 unsupported_option), where Stagehand 3 and 4 put it', async () => {
    await t.close();
    await start({ loadsExtensions: false });
    for (const body of [{ extensionId: 'ext-1' }, { browserSettings: { extensionId: 'ext-1' } }]) {
      const refused = await expectBrowserbaseError(await bb('POST', '/v1/sessions', body), 400, /extension/);
      expect(refused.code).toBe('unsupported_option');
    }
    expect(t.provider.calls.filter((call) => call.op === 'create')).toHaveLength(0);
    expect((await bb('POST', '/v1/sessions', {})).status).toBe(201);
  });

  it('answers every log entry in one array, read page by page, in order', async () => {
    const session = (await (await bb('POST', '/v1/sessions', {})).json()) as { id: string };
    const stored = await t.sessions.findInProject(projectId, session.id);
    for (let n = 0; n < 1234; n++)
      t.provider.addLog(stored!.providerSessionId, {
        timestamp: n,
        method: 'Runtime.consoleAPICalled',
        pageId: 0,
      });
    const res = await bb('GET', `/v1/sessions/${session.id}/logs`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const logs = (await res.json()) as Array<{ timestamp: number; sessionId: string }>;
    expect(logs.map((l) => l.timestamp)).toEqual(Array.from({ length: 1234 }, (_, n) => n));
    expect(new Set(logs.map((l) => l.sessionId))).toEqual(new Set([session.id]));
    const none = (await (await bb('POST', '/v1/sessions', {})).json()) as { id: string };
    expect(await (await bb('GET', `/v1/sessions/${none.id}/logs`)).json()).toEqual([]);
  });

  it('reads, lists by status and metadata, and releases', async () => {
    const one = (await (await bb('POST', '/v1/sessions', { userMetadata: { run: '1' } })).json()) as {
      id: string;
    };
    const two = (await (await bb('POST', '/v1/sessions', { userMetadata: { run: '2' } })).json()) as {
      id: string;
    };
    const read = await bb('GET', `/v1/sessions/${one.id}`);
    expect(read.status).toBe(200);
    expect(await read.json()).toMatchObject({ id: one.id, userMetadata: { run: '1' } });
    const ids = async (query: string) =>
      ((await (await bb('GET', `/v1/sessions${query}`)).json()) as Array<{ id: string }>).map((s) => s.id);
    expect(await ids('')).toEqual([two.id, one.id]);
    expect(await ids(`?q=${encodeURIComponent("user_metadata['run']:'1'")}`)).toEqual([one.id]);
    const released = await bb('POST', `/v1/sessions/${one.id}`, { status: 'REQUEST_RELEASE' });
    expect(released.status).toBe(200);
    expect(await released.json()).toMatchObject({ id: one.id, status: 'COMPLETED' });
    expect(await ids('?status=RUNNING')).toEqual([two.id]);
    expect(await ids('?status=COMPLETED')).toEqual([one.id]);
    await expectBrowserbaseError(await bb('GET', '/v1/sessions?q=nonsense'), 400, /q/);
    await expectBrowserbaseError(
      await bb('POST', `/v1/sessions/${one.id}`, { status: 'RUNNING' }),
      400,
      /status/,
    );
  });

  it('answers 404 for unknown ids, other projects and sessions of another project', async () => {
    await expectBrowserbaseError(await bb('GET', '/v1/sessions/not-a-session'), 404, /Session/);
    await expectBrowserbaseError(
      await bb('GET', '/v1/sessions/0190b000-0000-7000-8000-00000000dead'),
      404,
      /Session/,
    );
    const other = await t.request('/v1/projects', {
      method: 'POST',
      token: alice.accessToken,
      json: { name: 'Other' },
    });
    const otherId = ((await other.json()) as { id: string }).id;
    await expectBrowserbaseError(await bb('POST', '/v1/sessions', { projectId: otherId }), 404, /Project/);
    await expectBrowserbaseError(await bb('GET', `/v1/projects/${otherId}`), 404, /Project/);
    const otherKey = await newKey(alice, otherId);
    const theirs = (await (await bb('POST', '/v1/sessions', {}, otherKey)).json()) as { id: string };
    await expectBrowserbaseError(await bb('GET', `/v1/sessions/${theirs.id}`), 404, /Session/);
    await expectBrowserbaseError(await bb('GET', `/v1/sessions/${theirs.id}/recording`), 404, /Session/);
    await expectBrowserbaseError(await bb('GET', '/v1/sessions/x/downloads'), 404, /Session/);
  });

  it('needs a project API key: none, a bad one or a user token is a 401 in Browserbase’s shape', async () => {
    await expectBrowserbaseError(await t.request('/v1/sessions'), 401, /X-BB-API-Key|Authorization/);
    await expectBrowserbaseError(
      await bb('GET', '/v1/sessions', undefined, `bdk_${'x'.repeat(43)}`),
      401,
      /key/,
    );
    await expectBrowserbaseError(
      await t.request('/v1/sessions', { token: alice.accessToken }),
      401,
      /API key/,
    );
  });

  it('answers /v1/projects in Browserbase’s shape to a Browserbase client and in ours to a bearer', async () => {
    const asBrowserbase = await bb('GET', '/v1/projects');
    expect(asBrowserbase.status).toBe(200);
    expect(await asBrowserbase.json()).toEqual([
      expect.objectContaining({ id: projectId, name: 'Shop', ownerId: alice.id, defaultTimeout: 300 }),
    ]);
    const ours = await t.request('/v1/projects', { token: alice.accessToken });
    expect(await ours.json()).toEqual(
      expect.arrayContaining([expect.objectContaining({ slug: 'shop', archived: false })]),
    );
    const usage = await bb('GET', `/v1/projects/${projectId}/usage`);
    expect(await usage.json()).toEqual({ browserMinutes: 0, proxyBytes: 0 });
  });

  it('creates, reads and deletes contexts; a session opens only an existing one; PUT is a clear 400', async () => {
    const created = await bb('POST', '/v1/contexts', { projectId });
    expect(created.status).toBe(201);
    const context = (await created.json()) as { id: string; uploadUrl: null };
    expect(context).toMatchObject({ id: expect.any(String), projectId, uploadUrl: null });
    expect(await (await bb('GET', `/v1/contexts/${context.id}`)).json()).toMatchObject({
      id: context.id,
      projectId,
    });
    await expectBrowserbaseError(await bb('PUT', `/v1/contexts/${context.id}`), 400, /profile archive/);
    const session = await bb('POST', '/v1/sessions', {
      browserSettings: { context: { id: context.id, persist: true } },
    });
    expect(session.status).toBe(201);
    const call = t.provider.calls.find((c) => c.op === 'create');
    expect(call && 'request' in call ? call.request : undefined).toMatchObject({
      contextId: context.id,
      contextPersist: true,
    });
    await expectBrowserbaseError(
      await bb('POST', '/v1/sessions', { browserSettings: { context: { id: 'missing' } } }),
      404,
      /Context/,
    );
    // A session saving into the context holds it: no delete until it ends.
    await expectBrowserbaseError(await bb('DELETE', `/v1/contexts/${context.id}`), 409, /in use/);
    const { id } = (await session.json()) as { id: string };
    expect((await bb('POST', `/v1/sessions/${id}`, { status: 'REQUEST_RELEASE' })).status).toBe(200);
    expect((await bb('DELETE', `/v1/contexts/${context.id}`)).status).toBe(204);
    await expectBrowserbaseError(await bb('GET', `/v1/contexts/${context.id}`), 404, /Context/);
  });

  it('passes the provider’s capacity refusal on as a 429 with retry-after', async () => {
    t.provider.failNext('create', 'provider_rate_limited', 7);
    const res = await bb('POST', '/v1/sessions', {});
    await expectBrowserbaseError(res, 429, /.+/);
    expect(res.headers.get('retry-after')).toBe('7');
  });

  it('answers the live-view URLs of §5’s debug, in Browserbase’s shape', async () => {
    const session = (await (await bb('POST', '/v1/sessions', {})).json()) as {
      id: string;
      connectUrl: string;
    };
    const debug = await bb('GET', `/v1/sessions/${session.id}/debug`);
    expect(debug.status, await debug.clone().text()).toBe(200);
    const live = (await debug.json()) as Record<string, unknown>;
    const page = `${t.baseUrl}/v1/live/${session.id}?token=`;
    expect(live).toEqual({
      debuggerUrl: expect.stringMatching(/token=[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/),
      debuggerFullscreenUrl: `${live.debuggerUrl}&fullscreen=true`,
      wsUrl: session.connectUrl,
      pages: [expect.objectContaining({ id: expect.any(String), url: expect.any(String) })],
    });
    expect(String(live.debuggerUrl).startsWith(page)).toBe(true);
    // The page opens with it, as §14 says.
    expect((await fetch(String(live.debuggerFullscreenUrl))).status).toBe(200);
  });

  it('refuses the live-view URLs of an ended session (409) and of an unknown one (404), in Browserbase’s shape', async () => {
    const session = (await (await bb('POST', '/v1/sessions', {})).json()) as { id: string };
    expect((await bb('POST', `/v1/sessions/${session.id}`, { status: 'REQUEST_RELEASE' })).status).toBe(200);
    await expectBrowserbaseError(await bb('GET', `/v1/sessions/${session.id}/debug`), 409, /ended/);
    await expectBrowserbaseError(
      await bb('GET', '/v1/sessions/00000000-0000-7000-8000-000000000000/debug'),
      404,
      /not found/,
    );
  });
});
