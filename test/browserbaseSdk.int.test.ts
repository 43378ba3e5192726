import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Browserbase, {
  AuthenticationError,
  BadRequestError,
  NotFoundError,
  RateLimitError,
} from '@browserbasehq/sdk';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { givenProjectApiKey } from './projectApiKey.ts';
import { runNodeScript } from './runNodeScript.ts';
import { type ServerProcess, startServerProcess } from './serverProcess.ts';

const QUICKSTART = resolve(import.meta.dirname, '../docs/examples/browserbase-quickstart.mjs');

describe('the Browserbase SDK against npm start’s server (local Chromium)', () => {
  let server: ServerProcess;
  let dir: string;
  let bb: Browserbase;
  let given: Awaited<ReturnType<typeof givenProjectApiKey>>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'browserdeck-bb-'));
    server = await startServerProcess({
      DATA_DIR: dir,
      LOCAL_MAX_SESSIONS: '2',
      LOCAL_MAX_SESSIONS_PER_OWNER: '1',
      LOCAL_WARM_BROWSERS: '0',
    });
    given = await givenProjectApiKey(server, 'bb@example.com');
    bb = new Browserbase({ apiKey: given.key, baseURL: server.url, maxRetries: 0 });
  }, 60_000);

  afterAll(async () => {
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('runs Browserbase’s quick-start with two lines changed: a session, a page, and it ends on disconnect', async () => {
    const out = await runNodeScript(QUICKSTART, {
      BROWSERDECK_URL: server.url,
      BROWSERDECK_API_KEY: given.key,
      BROWSERBASE_PROJECT_ID: given.projectId,
      QUICKSTART_PAGE: 'data:text/html,<title>quick start</title>',
    });
    expect(out).toContain('Title: quick start');
    const id = /Session created, id: (\S+)/.exec(out)?.[1] as string;
    // keepAlive was not asked for: the session ends when its client disconnects, as at Browserbase.
    await expect
      .poll(async () => (await bb.sessions.retrieve(id)).status, { timeout: 15_000 })
      .toBe('COMPLETED');
  }, 60_000);

  it('creates, reads, lists, logs and releases a session Playwright drives; the rows are §5’s', async () => {
    const session = await bb.sessions.create({
      projectId: given.projectId,
      keepAlive: true,
      userMetadata: { team: 'checkout', run: '42' },
      browserSettings: { viewport: { width: 1024, height: 700 } },
    });
    expect(session).toMatchObject({
      projectId: given.projectId,
      status: 'RUNNING',
      keepAlive: true,
      region: 'local',
      proxyBytes: 0,
      userMetadata: { team: 'checkout', run: '42' },
    });
    expect(session.connectUrl).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/v1\/local\/sessions\//);
    expect(session.signingKey).toBe(new URL(session.connectUrl).searchParams.get('signingKey'));

    const browser = await chromium.connectOverCDP(session.connectUrl);
    const page = browser.contexts()[0]!.pages()[0] ?? (await browser.contexts()[0]!.newPage());
    expect(await page.evaluate<number[]>('[1 + 1, innerWidth, innerHeight]')).toEqual([2, 1024, 700]);
    await page.evaluate(() => console.log('from the sdk test'));

    expect(await bb.sessions.retrieve(session.id)).toMatchObject({ id: session.id, status: 'RUNNING' });
    const running = await bb.sessions.list({ status: 'RUNNING' });
    expect(running.map((s) => s.id)).toContain(session.id);
    const tagged = await bb.sessions.list({ q: "user_metadata['team']:'checkout'" });
    expect(tagged.map((s) => s.id)).toEqual([session.id]);
    expect(await bb.sessions.list({ q: "user_metadata['team']:'billing'" })).toEqual([]);
    await expect
      .poll(async () => (await bb.sessions.logs.list(session.id)).map((l) => l.method))
      .toContain('Runtime.consoleAPICalled');
    const logs = await bb.sessions.logs.list(session.id);
    expect(logs[0]).toMatchObject({ sessionId: session.id, pageId: expect.any(Number) });

    // Browserdeck's own API shows the same row.
    const native = await fetch(`${server.url}/v1/local/projects/${given.projectId}/sessions/${session.id}`, {
      headers: { Authorization: `Bearer ${given.key}` },
    });
    expect(native.status).toBe(200);
    expect(await native.json()).toMatchObject({ id: session.id, status: 'RUNNING', provider: 'local' });

    // The live view (§14): Browserdeck's viewer page with a token for this session; wsUrl is CDP.
    const debug = await bb.sessions.debug(session.id);
    const viewer = `${server.url}/v1/live/${session.id}?token=`;
    expect(debug.debuggerUrl.startsWith(viewer)).toBe(true);
    expect(debug.debuggerFullscreenUrl).toBe(`${debug.debuggerUrl}&fullscreen=true`);
    expect(debug.wsUrl).toBe(session.connectUrl);
    expect(debug.pages.map((p) => p.url)).toContain(page.url());
    const livePage = await fetch(debug.debuggerFullscreenUrl);
    expect(livePage.status).toBe(200);
    expect(livePage.headers.get('content-type')).toMatch(/^text\/html/);

    const released = await bb.sessions.update(session.id, {
      status: 'REQUEST_RELEASE',
      projectId: given.projectId,
    });
    expect(released).toMatchObject({ id: session.id, status: 'COMPLETED', endedAt: expect.any(String) });
    await browser.close().catch(() => {});

    const [project] = await bb.projects.list();
    expect(project).toMatchObject({ id: given.projectId, name: 'Default Project', defaultTimeout: 300 });
    expect(await bb.projects.retrieve(given.projectId)).toMatchObject({ id: given.projectId });
    const usage = await bb.projects.usage(given.projectId);
    expect(usage).toEqual({ browserMinutes: expect.any(Number), proxyBytes: 0 });
    expect(usage.browserMinutes).toBeGreaterThanOrEqual(1);
  }, 90_000);

  it('keeps a cookie across two sessions through a context with persist: true', async () => {
    const context = await bb.contexts.create({ projectId: given.projectId });
    expect(context.id).toEqual(expect.any(String));
    expect(await bb.contexts.retrieve(context.id)).toMatchObject({
      id: context.id,
      projectId: given.projectId,
    });
    const withContext = {
      projectId: given.projectId,
      keepAlive: true,
      browserSettings: { context: { id: context.id, persist: true } },
    };

    const first = await bb.sessions.create(withContext);
    const one = await chromium.connectOverCDP(first.connectUrl);
    await one.contexts()[0]!.addCookies([
      {
        name: 'deck',
        value: 'kept',
        url: 'https://shop.example/',
        expires: Math.floor(Date.now() / 1000) + 3600,
      },
    ]);
    await bb.sessions.update(first.id, { status: 'REQUEST_RELEASE' });
    await one.close().catch(() => {});

    const second = await bb.sessions.create(withContext);
    const two = await chromium.connectOverCDP(second.connectUrl);
    const cookies = await two.contexts()[0]!.cookies('https://shop.example/');
    expect(cookies.map((c) => [c.name, c.value])).toEqual([['deck', 'kept']]);
    await bb.sessions.update(second.id, { status: 'REQUEST_RELEASE' });
    await two.close().catch(() => {});
    await bb.contexts.delete(context.id);
    await expect(bb.contexts.retrieve(context.id)).rejects.toBeInstanceOf(NotFoundError);
  }, 90_000);

  it('raises the SDK’s typed errors where Browserbase would', async () => {
    await expect(bb.sessions.retrieve('00000000-0000-7000-8000-000000000000')).rejects.toBeInstanceOf(
      NotFoundError,
    );
    await expect(bb.sessions.retrieve('no-such-session')).rejects.toBeInstanceOf(NotFoundError);
    const wrongKey = new Browserbase({ apiKey: `bdk_${'x'.repeat(43)}`, baseURL: server.url, maxRetries: 0 });
    await expect(wrongKey.sessions.list()).rejects.toBeInstanceOf(AuthenticationError);
    const refused = await bb.sessions
      .create({ projectId: given.projectId, proxies: true })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(BadRequestError);
    expect((refused as BadRequestError).message).toMatch(/^400 .*proxies/);
    await expect(
      bb.sessions.create({ projectId: given.projectId, browserSettings: { solveCaptchas: true } }),
    ).rejects.toBeInstanceOf(BadRequestError);
    await expect(
      bb.sessions.create({ projectId: '00000000-0000-7000-8000-000000000001' }),
    ).rejects.toBeInstanceOf(NotFoundError);

    // LOCAL_MAX_SESSIONS_PER_OWNER=1: a second session at once is over this account's capacity.
    const held = await bb.sessions.create({ projectId: given.projectId, keepAlive: true });
    const limited = await bb.sessions.create({ projectId: given.projectId }).catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(RateLimitError);
    expect(Number((limited as RateLimitError).headers?.['retry-after'])).toBeGreaterThan(0);
    await bb.sessions.update(held.id, { status: 'REQUEST_RELEASE' });
  }, 60_000);
});
