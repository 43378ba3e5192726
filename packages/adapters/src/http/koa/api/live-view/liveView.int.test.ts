import { readFile } from 'node:fs/promises';
import { SessionOnOtherInstanceError } from '@browserdeck/domain';
import {
  assertProblem,
  createTestApp,
  FAKE_LIVE_PAGE,
  FakeLiveViewHub,
  type TestApp,
  type TestAppOptions,
  type TestUser,
} from '@browserdeck/testing/adapters';
import { FAKE_CDP_TAB, fakeCdpBrowser, LiveViewerClient } from '@browserdeck/testing/live-view';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ScreencastHub } from '../../../../browsers/live-view/ScreencastHub.ts';
import type { SessionJson } from '../sessions/presentSession.ts';
import { SessionLiveUrlsSchema } from '../sessions/sessionSchemas.ts';

const UNKNOWN = '0190b000-0000-7000-8000-00000000dead';
const PAGE_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' blob: data:; " +
  "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'self'";

let t: TestApp;
let hub: FakeLiveViewHub;
let alice: TestUser;
let projectId: string;
let base: string;

async function setUp(options: TestAppOptions = {}) {
  hub = new FakeLiveViewHub();
  t = await createTestApp({ liveView: hub, ...options });
  alice = await t.signUpAndIn('alice@example.com');
  const res = await t.request('/v1/projects', {
    method: 'POST',
    token: alice.accessToken,
    json: { name: 'Live' },
  });
  projectId = ((await res.json()) as { id: string }).id;
  base = `/v1/${t.provider.name}/projects/${projectId}/sessions`;
}
afterEach(() => t?.close());

async function startSession(): Promise<SessionJson> {
  const res = await t.request(base, { method: 'POST', token: alice.accessToken, json: {} });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as SessionJson;
}

/** A new user who joined the project with `role`, by alice's invitation. */
async function joined(role: string): Promise<TestUser> {
  const user = await t.signUpAndIn();
  const invited = await t.request(`/v1/projects/${projectId}/members`, {
    method: 'POST',
    token: alice.accessToken,
    json: { email: user.email, role },
  });
  expect(invited.status, await invited.clone().text()).toBe(201);
  const { token } = (await invited.json()) as { token: string };
  const accepted = await t.request(`/v1/invitations/${token}:accept`, {
    method: 'POST',
    token: user.accessToken,
  });
  expect(accepted.status, await accepted.clone().text()).toBe(200);
  return user;
}

const debug = (sessionId: string, token = alice.accessToken, path = base, query = '') =>
  t.request(`${path}/${sessionId}/debug${query}`, { token });

interface LiveUrls {
  debuggerUrl: string;
  debuggerFullscreenUrl: string;
  wsUrl: string;
  pages: Array<{
    id: string;
    url: string;
    title: string;
    faviconUrl: string;
    debuggerUrl: string;
    debuggerFullscreenUrl: string;
  }>;
}

async function liveUrls(sessionId: string, query = '', token = alice.accessToken): Promise<LiveUrls> {
  const res = await debug(sessionId, token, base, query);
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as LiveUrls;
}

const tokenOf = (url: string) => new URL(url).searchParams.get('token') as string;
const release = async (sessionId: string) =>
  expect(
    (await t.request(`${base}/${sessionId}:release`, { method: 'POST', token: alice.accessToken })).status,
  ).toBe(200);
const page = (sessionId: string, query: string) => t.request(`/v1/live/${sessionId}?${query}`);

/** A WebSocket to the live view: the viewer's first message when admitted, else the refusal as a Response. */
function openViewer(path: string): Promise<{ message: Record<string, unknown>; ws: WebSocket } | Response> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${t.baseUrl.replace('http:', 'ws:')}${path}`);
    ws.once('message', (data) =>
      resolve({ message: JSON.parse(String(data)) as Record<string, unknown>, ws }),
    );
    ws.once('unexpected-response', (_req, res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const headers = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          if (typeof value === 'string') headers.set(name, value);
        }
        resolve(
          new Response(Buffer.concat(chunks).toString('utf8'), { status: res.statusCode ?? 0, headers }),
        );
      });
    });
    ws.once('error', (error) => {
      if (!String(error.message).startsWith('Unexpected server response')) reject(error);
    });
  });
}

/** Resolves with the close code and reason once the socket closes. */
function closeOf(ws: WebSocket): Promise<{ code: number; reason: string }> {
  return new Promise((resolve) =>
    ws.once('close', (code, reason) => resolve({ code, reason: String(reason) })),
  );
}

/**
 * True when the server still serves the socket: a ping is answered (a server that closed it sends
 * its close frame first and answers no ping), false when it closes instead.
 */
function stillOpen(ws: WebSocket): Promise<boolean> {
  if (ws.readyState !== WebSocket.OPEN) return Promise.resolve(false);
  return new Promise((resolve) => {
    ws.once('pong', () => resolve(true));
    ws.once('close', () => resolve(false));
    ws.ping();
  });
}

/** An admitted viewer's socket; throws when refused. */
async function admitted(path: string): Promise<WebSocket> {
  const outcome = await openViewer(path);
  if (outcome instanceof Response) throw new Error(`refused: ${outcome.status} ${await outcome.text()}`);
  return outcome.ws;
}

async function newKey(project = projectId): Promise<{ id: string; key: string }> {
  const res = await t.request(`/v1/projects/${project}/api-keys`, {
    method: 'POST',
    token: alice.accessToken,
    json: { name: 'viewer' },
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string; key: string };
}

async function refusal(path: string): Promise<Response> {
  const outcome = await openViewer(path);
  if (!(outcome instanceof Response)) {
    outcome.ws.terminate();
    throw new Error(`the viewer was admitted: ${JSON.stringify(outcome.message)}`);
  }
  return outcome;
}

describe('GET …/sessions/{session_id}/debug', () => {
  it('answers Browserbase’s shape: the viewer page with a token, full screen, each tab, and wsUrl = connectUrl', async () => {
    await setUp();
    const session = await startSession();
    const second = {
      id: 'TARGET-2',
      url: 'https://example.com/',
      title: 'Example',
      faviconUrl: 'https://example.com/favicon.ico',
    };
    hub.tabs.set(session.providerSessionId, [FAKE_LIVE_PAGE, second]);

    const live = await liveUrls(session.id);

    expect(SessionLiveUrlsSchema.safeParse(live).success).toBe(true);
    const token = tokenOf(live.debuggerUrl);
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    const viewer = `${t.baseUrl}/v1/live/${session.id}?token=${token}`;
    expect(live).toEqual({
      debuggerUrl: viewer,
      debuggerFullscreenUrl: `${viewer}&fullscreen=true`,
      wsUrl: session.connectUrl,
      pages: [
        {
          ...FAKE_LIVE_PAGE,
          debuggerUrl: `${viewer}&page=${FAKE_LIVE_PAGE.id}`,
          debuggerFullscreenUrl: `${viewer}&page=${FAKE_LIVE_PAGE.id}&fullscreen=true`,
        },
        {
          ...second,
          debuggerUrl: `${viewer}&page=TARGET-2`,
          debuggerFullscreenUrl: `${viewer}&page=TARGET-2&fullscreen=true`,
        },
      ],
    });
    // Not the user's access token.
    expect(token).not.toBe(alice.accessToken);
  });

  it('works for the project’s API key, and refuses another project’s key with 403', async () => {
    await setUp();
    const session = await startSession();
    const newKey = async (project: string) => {
      const res = await t.request(`/v1/projects/${project}/api-keys`, {
        method: 'POST',
        token: alice.accessToken,
        json: { name: 'k' },
      });
      return ((await res.json()) as { key: string }).key;
    };
    const other = await t.request('/v1/projects', {
      method: 'POST',
      token: alice.accessToken,
      json: { name: 'Other' },
    });
    const otherKey = await newKey(((await other.json()) as { id: string }).id);
    const res = await debug(session.id, await newKey(projectId));
    expect(res.status, await res.clone().text()).toBe(200);
    expect(((await res.json()) as LiveUrls).debuggerUrl).toContain(`/v1/live/${session.id}?token=`);
    await assertProblem(await debug(session.id, otherKey), 403, 'forbidden_for_api_key');
  });

  it('is 404 for an unknown session and for another user’s, 409 once the session has ended', async () => {
    await setUp();
    const session = await startSession();
    await assertProblem(await debug(UNKNOWN), 404, 'not_found');
    const bob = await t.signUpAndIn('bob@example.com');
    await assertProblem(await debug(session.id, bob.accessToken), 404, 'not_found');
    await release(session.id);
    await assertProblem(await debug(session.id), 409, 'session_ended');
  });

  it('is 409 when the hub can no longer reach the session’s browser', async () => {
    await setUp();
    const session = await startSession();
    hub.unreachable.add(session.providerSessionId);
    await assertProblem(await debug(session.id), 409, 'session_ended');
  });

  it('is 503 session_on_other_instance when another instance holds the browser', async () => {
    await setUp({
      overrides: {
        useCases: {
          sessions: { liveView: { execute: () => Promise.reject(new SessionOnOtherInstanceError()) } },
        },
      },
    });
    const session = await startSession();
    await assertProblem(await debug(session.id), 503, 'session_on_other_instance');
  });

  it('is 501 not_implemented without a hub (a provider that gives no CDP access)', async () => {
    hub = new FakeLiveViewHub();
    t = await createTestApp({ liveView: null });
    alice = await t.signUpAndIn('alice@example.com');
    const res = await t.request('/v1/projects', {
      method: 'POST',
      token: alice.accessToken,
      json: { name: 'Live' },
    });
    projectId = ((await res.json()) as { id: string }).id;
    base = `/v1/${t.provider.name}/projects/${projectId}/sessions`;
    const session = await startSession();
    const problem = await assertProblem(await debug(session.id), 501, 'not_implemented');
    expect(problem.detail).toMatch(/connectUrl/);
  });
});

describe('…/debug behind a reverse proxy (TRUST_PROXY, PUBLIC_URL)', () => {
  const FORWARDED = { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'deck.example.com' };
  async function viewerVia(headers: Record<string, string>): Promise<{ live: LiveUrls; connectUrl: string }> {
    const session = await startSession();
    const res = await t.request(`${base}/${session.id}/debug`, { token: alice.accessToken, headers });
    expect(res.status, await res.clone().text()).toBe(200);
    const read = await t.request(`${base}/${session.id}`, { token: alice.accessToken, headers });
    return {
      live: (await res.json()) as LiveUrls,
      connectUrl: ((await read.json()) as SessionJson).connectUrl,
    };
  }

  it('hands out the forwarded scheme and host when the proxy (the socket’s peer) is trusted', async () => {
    await setUp({ overrides: { http: { trustProxy: 'loopback', publicUrlFromProxy: true } } });
    const { live, connectUrl } = await viewerVia(FORWARDED);
    expect(live.debuggerUrl).toMatch(/^https:\/\/deck\.example\.com\/v1\/live\/[0-9a-f-]{36}\?token=/);
    expect(live.pages[0]?.debuggerFullscreenUrl).toMatch(/^https:\/\/deck\.example\.com\/v1\/live\//);
    // The fake provider's connectUrl is not under the public URL: handed out as it is.
    expect(connectUrl).toMatch(/^wss:\/\/fake\.invalid\//);
    expect(live.wsUrl).toBe(connectUrl);
  });

  it('ignores forwarded scheme and host when no proxy is trusted (the default)', async () => {
    await setUp({ overrides: { http: { publicUrlFromProxy: true } } });
    const { live } = await viewerVia(FORWARDED);
    expect(live.debuggerUrl.startsWith(`${t.baseUrl}/v1/live/`)).toBe(true);
  });

  it('ignores them from a peer outside the trusted CIDRs', async () => {
    await setUp({ overrides: { http: { trustProxy: '10.0.0.0/8, fd00::/8', publicUrlFromProxy: true } } });
    const { live } = await viewerVia(FORWARDED);
    expect(live.debuggerUrl.startsWith(`${t.baseUrl}/v1/live/`)).toBe(true);
  });

  it('keeps a configured public URL (PUBLIC_URL wins) even behind a trusted proxy', async () => {
    // createTestApp gives createBrowserdeck a publicUrl: publicUrlFromProxy stays off.
    await setUp({ overrides: { http: { trustProxy: true } } });
    const { live } = await viewerVia(FORWARDED);
    expect(live.debuggerUrl.startsWith(`${t.baseUrl}/v1/live/`)).toBe(true);
  });

  it('ignores a malformed forwarded host or a scheme other than http(s)', async () => {
    await setUp({ overrides: { http: { trustProxy: 1, publicUrlFromProxy: true } } });
    const malformed: Record<string, string>[] = [
      { 'X-Forwarded-Host': 'evil.example/path' },
      { 'X-Forwarded-Host': 'deck.example.com:99999' },
      { 'X-Forwarded-Proto': 'javascript' },
    ];
    for (const headers of malformed) {
      const { live } = await viewerVia(headers);
      expect(live.debuggerUrl.startsWith(`${t.baseUrl}/v1/live/`), JSON.stringify(headers)).toBe(true);
    }
    const { live } = await viewerVia({ 'X-Forwarded-Proto': 'https, http' });
    expect(live.debuggerUrl.startsWith(`${t.baseUrl.replace('http:', 'https:')}/v1/live/`)).toBe(true);
  });
});

describe('the live-view page', () => {
  it('answers the viewer page for a good token, with its own CSP, no referrer, no store', async () => {
    await setUp();
    const session = await startSession();
    const live = await liveUrls(session.id);
    for (const url of [
      live.debuggerUrl,
      live.debuggerFullscreenUrl,
      `${live.pages[0]?.debuggerFullscreenUrl}&readOnly=true`,
    ]) {
      const res = await fetch(url);
      expect(res.status, url).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('content-security-policy')).toBe(PAGE_POLICY);
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(await res.text()).toMatch(/^<!doctype html>/i);
    }
  });

  it('lets the configured CORS origins frame it, and nothing that is not an origin', async () => {
    await setUp({
      overrides: {
        http: { corsOrigins: ['https://console.example.com', 'https://x.example; script-src *'] },
      },
    });
    const session = await startSession();
    const res = await fetch((await liveUrls(session.id)).debuggerUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toBe(`${PAGE_POLICY} https://console.example.com`);
  });

  it('is 401 for no token, a tampered one, another session’s and an expired one; 409 once the session ended', async () => {
    await setUp();
    const session = await startSession();
    const other = await startSession();
    const token = tokenOf((await liveUrls(session.id)).debuggerUrl);
    const otherToken = tokenOf((await liveUrls(other.id)).debuggerUrl);
    const tampered = `${token.slice(0, -1)}${token.endsWith('a') ? 'b' : 'a'}`;

    for (const query of ['', 'token=', `token=${tampered}`, `token=${otherToken}`, 'token=garbage']) {
      const problem = await assertProblem(await page(session.id, query), 401, 'unauthorized');
      expect(problem.detail).toBe('The live-view token is missing, invalid or expired.');
    }
    expect((await page(other.id, `token=${otherToken}`)).status).toBe(200);

    await release(other.id);
    await assertProblem(await page(other.id, `token=${otherToken}`), 409, 'session_ended');

    expect((await page(session.id, `token=${token}`)).status).toBe(200);
    t.clock.advance(3600_000);
    await assertProblem(await page(session.id, `token=${token}`), 401, 'unauthorized');
  });

  it('refuses a malformed option (400) and answers HEAD', async () => {
    await setUp();
    const session = await startSession();
    const token = tokenOf((await liveUrls(session.id)).debuggerUrl);
    await assertProblem(await page(session.id, `token=${token}&readOnly=yes`), 400, 'validation_failed');
    await assertProblem(await page(session.id, `token=${token}&page=a/b`), 400, 'validation_failed');
    await assertProblem(await page(session.id, `token=${token}&token=${token}`), 400, 'validation_failed');
    const head = await t.request(`/v1/live/${session.id}?token=${token}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('referrer-policy')).toBe('no-referrer');
  });

  it('is the page in the assets folder, whose files it serves, cached for an hour', async () => {
    await setUp();
    const session = await startSession();
    const res = await fetch((await liveUrls(session.id)).debuggerUrl);
    expect(await res.text()).toBe(await readFile(new URL('./assets/live.html', import.meta.url), 'utf8'));
    for (const [name, type] of [
      ['live.js', 'text/javascript; charset=utf-8'],
      ['live.css', 'text/css; charset=utf-8'],
    ] as const) {
      const asset = await t.request(`/v1/live/assets/${name}`);
      expect(asset.status, name).toBe(200);
      expect(asset.headers.get('content-type')).toBe(type);
      expect(asset.headers.get('cache-control')).toBe('public, max-age=3600');
      expect(await asset.text()).toBe(await readFile(new URL(`./assets/${name}`, import.meta.url), 'utf8'));
    }
  });

  it('serves no file outside its assets folder, nor unknown ones', async () => {
    await setUp();
    for (const name of [
      '..%2FliveViewRoutes.ts',
      '%2E%2E%2F%2E%2E%2FHttpAppDeps.ts',
      'liveViewRoutes.ts',
      'live.html',
      'nope.js',
      '.hidden.js',
    ]) {
      await assertProblem(await t.request(`/v1/live/assets/${name}`), 404, 'not_found');
    }
  });
});

describe('the live-view WebSocket', () => {
  it('hands an admitted viewer to the hub with its page and readOnly', async () => {
    await setUp();
    const session = await startSession();
    const token = tokenOf((await liveUrls(session.id)).debuggerUrl);

    const first = await openViewer(
      `/v1/live/${session.id}/ws?token=${token}&page=TARGET-2&readOnly=true&fullscreen=true`,
    );
    if (first instanceof Response) throw new Error(`refused: ${first.status} ${await first.text()}`);
    expect(first.message).toEqual({
      type: 'fake-viewer',
      providerSessionId: session.providerSessionId,
      pageId: 'TARGET-2',
      readOnly: true,
    });
    first.ws.close();

    const second = await openViewer(`/v1/live/${session.id}/ws?token=${token}`);
    if (second instanceof Response) throw new Error(`refused: ${second.status}`);
    expect(second.message).toMatchObject({ pageId: null, readOnly: false });
    second.ws.close();
    expect(hub.viewers).toEqual([
      { providerSessionId: session.providerSessionId, pageId: 'TARGET-2', readOnly: true },
      { providerSessionId: session.providerSessionId, pageId: null, readOnly: false },
    ]);
  });

  it('refuses a bad, foreign or expired token with 401 and an ended session with 409, before the hub sees it', async () => {
    await setUp();
    const session = await startSession();
    const other = await startSession();
    const token = tokenOf((await liveUrls(session.id)).debuggerUrl);
    const otherToken = tokenOf((await liveUrls(other.id)).debuggerUrl);
    const ws = (id: string, query: string) => refusal(`/v1/live/${id}/ws?${query}`);

    await assertProblem(await ws(session.id, ''), 401, 'unauthorized');
    await assertProblem(await ws(session.id, 'token=garbage'), 401, 'unauthorized');
    await assertProblem(await ws(session.id, `token=${otherToken}`), 401, 'unauthorized');
    await assertProblem(await ws(session.id, `token=${token}&readOnly=1`), 400, 'validation_failed');
    await assertProblem(
      await ws(session.id, `token=${token}&page=${'x'.repeat(200)}`),
      400,
      'validation_failed',
    );
    await release(other.id);
    await assertProblem(await ws(other.id, `token=${otherToken}`), 409, 'session_ended');
    t.clock.advance(3600_000);
    await assertProblem(await ws(session.id, `token=${token}`), 401, 'unauthorized');
    expect(hub.viewers).toEqual([]);
  });

  it('is a 404 problem for other WebSocket paths, and 501 without a hub', async () => {
    await setUp();
    await assertProblem(await refusal(`/v1/live/${UNKNOWN}/socket`), 404, 'not_found');
    const session = await startSession();
    const token = tokenOf((await liveUrls(session.id)).debuggerUrl);
    await t.close();
    t = await createTestApp({
      liveView: null,
      overrides: {
        useCases: {
          sessions: { openLiveView: { execute: async () => ({ providerSessionId: 'p' }) as never } },
        },
      },
    });
    await assertProblem(await refusal(`/v1/live/${session.id}/ws?token=${token}`), 501, 'not_implemented');
  });
});

describe('read-only tokens', () => {
  it('GET …/debug?readOnly=true answers URLs whose token is read-only; the flag stays on them for the page', async () => {
    await setUp();
    const session = await startSession();
    const live = await liveUrls(session.id, '?readOnly=true');
    const token = tokenOf(live.debuggerUrl);
    const viewer = `${t.baseUrl}/v1/live/${session.id}?token=${token}&readOnly=true`;
    expect(live.debuggerUrl).toBe(viewer);
    expect(live.debuggerFullscreenUrl).toBe(`${viewer}&fullscreen=true`);
    expect(live.pages[0]?.debuggerUrl).toBe(`${viewer}&page=${FAKE_LIVE_PAGE.id}`);

    // The flag removed from the URL: the socket is still read-only.
    (await admitted(`/v1/live/${session.id}/ws?token=${token}`)).close();
    (await admitted(`/v1/live/${session.id}/ws?token=${token}&readOnly=false`)).close();
    expect(hub.viewers.map((v) => v.readOnly)).toEqual([true, true]);
    // And the page opens without it.
    expect((await page(session.id, `token=${token}`)).status).toBe(200);
  });

  it('readOnly=false or no flag gives a full token; &readOnly=true on its URL narrows it', async () => {
    await setUp();
    const session = await startSession();
    const full = tokenOf((await liveUrls(session.id, '?readOnly=false')).debuggerUrl);
    expect((await liveUrls(session.id, '?readOnly=false')).debuggerUrl).not.toContain('readOnly');
    (await admitted(`/v1/live/${session.id}/ws?token=${full}`)).close();
    (await admitted(`/v1/live/${session.id}/ws?token=${full}&readOnly=true`)).close();
    expect(hub.viewers.map((v) => v.readOnly)).toEqual([false, true]);
  });

  it('refuses a readOnly that is not true or false with 400 validation_failed', async () => {
    await setUp();
    const session = await startSession();
    for (const value of ['yes', '1', 'TRUE', '']) {
      const problem = await assertProblem(
        await debug(session.id, alice.accessToken, base, `?readOnly=${value}`),
        400,
        'validation_failed',
      );
      expect(problem.errors).toEqual([{ path: 'readOnly', message: 'must be true or false' }]);
    }
  });

  it('the Browserbase route GET /v1/sessions/{id}/debug?readOnly=true answers a read-only token too', async () => {
    await setUp();
    const session = await startSession();
    const { key } = await newKey();
    const res = await t.request(`/v1/sessions/${session.id}/debug?readOnly=true`, {
      headers: { 'X-BB-API-Key': key },
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const live = (await res.json()) as LiveUrls;
    expect(live.debuggerUrl).toMatch(/&readOnly=true$/);
    const token = tokenOf(live.debuggerUrl);
    (await admitted(`/v1/live/${session.id}/ws?token=${token}`)).close();
    expect(hub.viewers).toEqual([
      { providerSessionId: session.providerSessionId, pageId: null, readOnly: true },
    ]);
    const bad = await t.request(`/v1/sessions/${session.id}/debug?readOnly=maybe`, {
      headers: { 'X-BB-API-Key': key },
    });
    expect(bad.status).toBe(400);
  });

  it('a read-only token cannot drive the page with the flag removed: the hub drops its input (real hub, fake browser)', async () => {
    const browser = fakeCdpBrowser();
    await setUp({ liveView: new ScreencastHub({ cdp: browser.cdp, minFrameIntervalMs: 0 }) });
    const session = await startSession();
    const wsBase = `${t.baseUrl.replace('http:', 'ws:')}/v1/live/${session.id}/ws`;
    /** Sends input, then a `select`, and waits for its answer: the input was handled by then. */
    const typeInto = async (query: string) => {
      const viewer = await LiveViewerClient.connect(`${wsBase}?${query}`);
      await viewer.nextFrame(0);
      const before = browser.count('Input.insertText') + browser.count('Input.dispatchMouseEvent');
      viewer.send({ type: 'text', text: 'typed' });
      viewer.send({
        type: 'mouse',
        action: 'down',
        x: 0.5,
        y: 0.5,
        button: 'left',
        buttons: 1,
        clickCount: 1,
        modifiers: 0,
      });
      const seen = viewer.messages.length;
      viewer.send({ type: 'select', pageId: FAKE_CDP_TAB.targetId });
      await viewer.waitFor(() => viewer.messages.length > seen, 5_000, 'the answer to select');
      await viewer.close();
      return browser.count('Input.insertText') + browser.count('Input.dispatchMouseEvent') - before;
    };
    const readOnly = tokenOf((await liveUrls(session.id, '?readOnly=true')).debuggerUrl);
    const full = tokenOf((await liveUrls(session.id)).debuggerUrl);

    expect(await typeInto(`token=${readOnly}`)).toBe(0);
    expect(await typeInto(`token=${readOnly}&readOnly=false`)).toBe(0);
    expect(await typeInto(`token=${full}&readOnly=true`)).toBe(0);
    expect(await typeInto(`token=${full}`)).toBe(2);
  });
});

describe('live views end with the credential that asked for them', () => {
  it('closes an open viewer (1008) once its project is archived, and refuses it from then on', async () => {
    await setUp();
    const session = await startSession();
    const token = tokenOf((await liveUrls(session.id)).debuggerUrl);
    const ws = await admitted(`/v1/live/${session.id}/ws?token=${token}`);
    const closed = closeOf(ws);
    expect(t.liveViewRecheck.intervals).toEqual([5_000]);

    await t.liveViewRecheck.tick();
    expect(await stillOpen(ws)).toBe(true);

    const archive = await t.request(`/v1/projects/${projectId}:archive`, {
      method: 'POST',
      token: alice.accessToken,
    });
    expect(archive.status).toBe(200);
    await t.liveViewRecheck.tick();
    expect(await closed).toEqual({ code: 1008, reason: 'The live view’s access was withdrawn.' });
    expect(t.liveViewRecheck.running).toBe(false);

    const problem = await assertProblem(
      await refusal(`/v1/live/${session.id}/ws?token=${token}`),
      401,
      'unauthorized',
    );
    expect(problem.detail).toBe('The live-view token is missing, invalid or expired.');
    await assertProblem(await page(session.id, `token=${token}`), 401, 'unauthorized');
    await assertProblem(await debug(session.id), 409, 'project_archived');
  });

  it('closes the viewers of a revoked API key’s token, and only those', async () => {
    await setUp();
    const session = await startSession();
    const { id: keyId, key } = await newKey();
    const keyToken = tokenOf((await liveUrls(session.id, '', key)).debuggerUrl);
    const userToken = tokenOf((await liveUrls(session.id)).debuggerUrl);
    const byKey = await admitted(`/v1/live/${session.id}/ws?token=${keyToken}`);
    const byUser = await admitted(`/v1/live/${session.id}/ws?token=${userToken}`);
    const keyClosed = closeOf(byKey);

    const revoke = await t.request(`/v1/projects/${projectId}/api-keys/${keyId}`, {
      method: 'DELETE',
      token: alice.accessToken,
    });
    expect(revoke.status).toBe(204);
    await t.liveViewRecheck.tick();
    expect((await keyClosed).code).toBe(1008);
    expect(await stillOpen(byUser)).toBe(true);
    await assertProblem(await refusal(`/v1/live/${session.id}/ws?token=${keyToken}`), 401, 'unauthorized');
    byUser.close();
  });

  it('closes a removed member’s viewers at once, and keeps the owner’s open', async () => {
    await setUp();
    const session = await startSession();
    const bob = await joined('developer');
    const bobToken = tokenOf((await liveUrls(session.id, '', bob.accessToken)).debuggerUrl);
    const aliceToken = tokenOf((await liveUrls(session.id)).debuggerUrl);
    const byBob = await admitted(`/v1/live/${session.id}/ws?token=${bobToken}`);
    const byAlice = await admitted(`/v1/live/${session.id}/ws?token=${aliceToken}`);
    const bobClosed = closeOf(byBob);

    const removed = await t.request(`/v1/projects/${projectId}/members/${bob.id}`, {
      method: 'DELETE',
      token: alice.accessToken,
    });
    expect(removed.status, await removed.clone().text()).toBe(204);
    await t.liveViewRecheck.tick();
    expect(await bobClosed).toEqual({ code: 1008, reason: 'The live view’s access was withdrawn.' });
    expect(await stillOpen(byAlice)).toBe(true);
    await assertProblem(await refusal(`/v1/live/${session.id}/ws?token=${bobToken}`), 401, 'unauthorized');
    await assertProblem(await page(session.id, `token=${bobToken}`), 401, 'unauthorized');
    byAlice.close();
  });

  it('gives a viewer only a read-only link, and closes its viewer when the viewer leaves the project', async () => {
    await setUp();
    const session = await startSession();
    const vera = await joined('viewer');
    const urls = await liveUrls(session.id, '', vera.accessToken);
    expect(urls.debuggerUrl).toContain('&readOnly=true');
    const ws = await admitted(`/v1/live/${session.id}/ws?token=${tokenOf(urls.debuggerUrl)}`);
    const closed = closeOf(ws);
    const removed = await t.request(`/v1/projects/${projectId}/members/${vera.id}`, {
      method: 'DELETE',
      token: vera.accessToken,
    });
    expect(removed.status, await removed.clone().text()).toBe(204);
    await t.liveViewRecheck.tick();
    expect((await closed).code).toBe(1008);
  });

  it('closes every viewer of a disabled account’s project, its keys’ too', async () => {
    await setUp({ access: { adminEmails: ['operator@example.com'] } });
    const operator = await t.signUpAndIn('operator@example.com');
    const session = await startSession();
    const { key } = await newKey();
    const byKey = await admitted(
      `/v1/live/${session.id}/ws?token=${tokenOf((await liveUrls(session.id, '', key)).debuggerUrl)}`,
    );
    const keyClosed = closeOf(byKey);
    const disabled = await t.request(`/v1/admin/users/${alice.id}:disable`, {
      method: 'POST',
      token: operator.accessToken,
    });
    expect(disabled.status, await disabled.clone().text()).toBe(200);
    await t.liveViewRecheck.tick();
    expect((await keyClosed).code).toBe(1008);
    await assertProblem(await debug(session.id, key), 403, 'account_disabled');
  });

  it('refuses a new open after sign-out, and closes the viewer that was open', async () => {
    await setUp();
    const session = await startSession();
    const token = tokenOf((await liveUrls(session.id)).debuggerUrl);
    expect((await page(session.id, `token=${token}`)).status).toBe(200);
    const ws = await admitted(`/v1/live/${session.id}/ws?token=${token}`);
    const closed = closeOf(ws);

    const signOut = await t.request('/v1/auth/signout', { method: 'POST', token: alice.accessToken });
    expect(signOut.status).toBe(200);
    await assertProblem(await refusal(`/v1/live/${session.id}/ws?token=${token}`), 401, 'unauthorized');
    await assertProblem(await page(session.id, `token=${token}`), 401, 'unauthorized');
    await t.liveViewRecheck.tick();
    expect((await closed).code).toBe(1008);
  });

  it('stops re-checking when the last viewer leaves', async () => {
    await setUp();
    const session = await startSession();
    const token = tokenOf((await liveUrls(session.id)).debuggerUrl);
    expect(t.liveViewRecheck.running).toBe(false);
    const ws = await admitted(`/v1/live/${session.id}/ws?token=${token}`);
    expect(t.liveViewRecheck.running).toBe(true);
    const closed = closeOf(ws);
    ws.close();
    await closed;
    // Resolves once the server side of the socket has closed and the watch let the timer go.
    await t.liveViewRecheck.whenIdle();
    expect(t.liveViewRecheck.running).toBe(false);
  });
});
