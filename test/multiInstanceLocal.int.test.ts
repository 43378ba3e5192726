import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LiveViewerClient } from '@browserdeck/testing/live-view';
import { chromium } from 'playwright-core';
import { By, Session, WebDriver } from 'selenium-webdriver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callInstance, eventually, sharedInstanceSecrets, through } from './instancesApi.ts';
import { createTestDatabase, type TestDatabase } from './postgres.ts';
import { descendantsOf, isRunning } from './processTree.ts';
import { type ServerProcess, startServerProcess } from './serverProcess.ts';
import { zipEntries } from './zipFiles.ts';

const PASSWORD = 'correct horse battery';
const OPERATOR = 'operator@example.com';
const { Executor, HttpClient } = createRequire(import.meta.url)(
  'selenium-webdriver/http',
) as typeof import('selenium-webdriver/http.js');

/**
 * SPEC §15, several instances with the local provider: each instance holds its own browsers; every
 * request about a session works on every instance (carried to the holder), a killed holder's
 * sessions end ERROR, and a restarted one ends the sessions its previous run left active.
 */
describe('instances on one PostgreSQL database, local provider: any instance serves any session', () => {
  let db: TestDatabase;
  let a: ServerProcess;
  let b: ServerProcess;
  let token = '';
  let projectId = '';
  const dirs = [0, 1].map(() => mkdtempSync(join(tmpdir(), 'browserdeck-instances-')));
  const shared = {
    ...sharedInstanceSecrets(),
    // Lost after 15 s without a heartbeat: long enough for a restart to come first (see the test).
    RECONCILE_INTERVAL_SEC: '30',
    LOCAL_WARM_BROWSERS: '0',
    LOCAL_MAX_SESSIONS: '3',
    ADMIN_EMAILS: OPERATOR,
  };
  const envOf = (i: 0 | 1) => ({
    ...shared,
    DATABASE_URL: db.url,
    DATA_DIR: dirs[i]!,
    LOCAL_INSTANCE_ID: `i${i}`,
  });
  const sessions = () => `/v1/local/projects/${projectId}/sessions`;

  beforeAll(async () => {
    db = await createTestDatabase();
    a = await startServerProcess(envOf(0), 60_000);
    b = await startServerProcess(envOf(1), 60_000);
    const email = `instances-${Date.now()}@example.com`;
    expect(
      (await callInstance(a, 'POST', '/v1/auth/signup', undefined, { email, password: PASSWORD })).status,
    ).toBe(201);
    const signin = await callInstance(b, 'POST', '/v1/auth/signin', undefined, { email, password: PASSWORD });
    token = signin.body.access_token;
    const project = await callInstance(b, 'POST', '/v1/projects', token, { name: 'Instances' });
    expect(project.status).toBe(201);
    projectId = project.body.id;
  }, 120_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await db?.drop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('reads, logs, connects, views live and releases a session through the instance that does not hold it', async () => {
    const created = await callInstance(a, 'POST', sessions(), token, {});
    expect(created.status).toBe(201);
    const id = created.body.id as string;

    const read = await callInstance(b, 'GET', `${sessions()}/${id}`, token);
    expect(read.status).toBe(200);
    expect(read.body.status).toBe('RUNNING');
    expect(read.headers.get('x-sync-error')).toBeNull();

    // Playwright through B, to A's browser: the same browser A holds.
    const browser = await chromium.connectOverCDP(through(b, created.body.connectUrl));
    const page = browser.contexts()[0]!.pages()[0] ?? (await browser.contexts()[0]!.newPage());
    expect(await page.evaluate(() => 6 * 7)).toBe(42);
    await page.evaluate(() => console.log('through another instance'));
    // The command policy of the holder applies to a forwarded connection too.
    const cdp = await browser.newBrowserCDPSession();
    await expect(
      cdp.send('Browser.executeBrowserCommand' as never, { commandId: 'openTabSearch' } as never),
    ).rejects.toThrow(/refused|not allowed/i);
    await browser.close();

    const logs = await eventually('the console line is in the logs read through B', async () => {
      const answer = await callInstance(b, 'GET', `${sessions()}/${id}/logs`, token);
      expect(answer.status).toBe(200);
      const lines = answer.body.data ?? answer.body;
      return JSON.stringify(lines).includes('through another instance') ? answer : false;
    });
    expect(logs.status).toBe(200);

    const debug = await callInstance(b, 'GET', `${sessions()}/${id}/debug`, token);
    expect(debug.status).toBe(200);
    expect(debug.body.pages.length).toBeGreaterThan(0);
    const pageUrl = new URL(debug.body.debuggerUrl);
    const socketUrl = new URL(
      `${pageUrl.pathname.replace(/\/?$/, '/ws')}${pageUrl.search}`,
      b.url.replace(/^http/, 'ws'),
    );
    const viewer = await LiveViewerClient.connect(socketUrl.toString());
    await viewer.waitFor(() => viewer.frames.length > 0, 30_000, 'a frame through B');
    viewer.ws.close();

    // Selenium through B, on the same browser: the page Playwright left is there.
    expect(created.body.seleniumRemoteUrl).toMatch(/^http:\/\/.+\/webdriver\//);
    const driver = new WebDriver(
      new Session(id, {}),
      new Executor(new HttpClient(through(b, created.body.seleniumRemoteUrl))),
    );
    await driver.get('data:text/html,<title>through B</title><p id="p">selenium</p>');
    expect(await driver.getTitle()).toBe('through B');
    expect(await driver.findElement(By.id('p')).getText()).toBe('selenium');

    const released = await callInstance(b, 'POST', `${sessions()}/${id}:release`, token);
    expect(released.status).toBe(200);
    expect(released.body.status).toBe('COMPLETED');
    const onHolder = await callInstance(a, 'GET', `${sessions()}/${id}`, token);
    expect(onHolder.body.status).toBe('COMPLETED');
    await expect(
      chromium.connectOverCDP(through(b, created.body.connectUrl), { timeout: 5_000 }),
    ).rejects.toThrow();
  });

  it('takes an upload and answers the downloads through the instance that does not hold the session', async () => {
    const created = await callInstance(a, 'POST', sessions(), token, {});
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const browser = await chromium.connectOverCDP(through(b, created.body.connectUrl));
    try {
      const page = browser.contexts()[0]!.pages()[0] ?? (await browser.contexts()[0]!.newPage());
      await page.setContent(`<a id="made" href="data:text/plain,made in the page" download="made.txt">made</a>
        <input id="pick" type="file">
        <script>
          document.getElementById('pick').addEventListener('change', async (event) => {
            document.title = 'read: ' + (await event.target.files[0].text());
          });
        </script>`);
      const download = page.waitForEvent('download');
      await page.click('#made');
      expect(await (await download).failure()).toBeNull();

      const form = new FormData();
      form.append('file', new Blob(['sent to B, stored on A']), 'note.txt');
      const uploaded = await fetch(`${b.url}${sessions()}/${id}/uploads`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}` },
        body: form,
      });
      expect(uploaded.status, await uploaded.clone().text()).toBe(201);
      const { path } = (await uploaded.json()) as { path: string };
      await page.setInputFiles('#pick', path);
      await expect.poll(() => page.title(), { timeout: 10_000 }).toBe('read: sent to B, stored on A');
    } finally {
      await browser.close().catch(() => {});
    }
    const zip = async () => {
      const response = await fetch(`${b.url}${sessions()}/${id}/downloads`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/zip');
      return zipEntries(Buffer.from(await response.arrayBuffer()));
    };
    expect(await zip()).toEqual({ 'made.txt': 'made in the page' });
    expect((await callInstance(b, 'POST', `${sessions()}/${id}:release`, token)).status).toBe(200);
    // Kept on the holder after the session's end, and still read through B.
    expect(await zip()).toEqual({ 'made.txt': 'made in the page' });
  });

  it('refuses the internal routes to a caller without an instance signature', async () => {
    const answer = await callInstance(a, 'GET', '/internal/v1/instance');
    expect(answer.status).toBe(401);
    const forged = await fetch(`${a.url}/internal/v1/instance`, {
      headers: { 'x-browserdeck-instance-auth': `i1.i0.${Date.now()}.0000000000000000000000` },
    });
    expect(forged.status).toBe(401);
  });

  it('ends a disabled account’s session on the instance holding it, and refuses its key on every instance', async () => {
    const account = async (email: string) => {
      expect(
        (await callInstance(a, 'POST', '/v1/auth/signup', undefined, { email, password: PASSWORD })).status,
      ).toBe(201);
      const signin = await callInstance(b, 'POST', '/v1/auth/signin', undefined, {
        email,
        password: PASSWORD,
      });
      return { token: signin.body.access_token as string, id: signin.body.user.id as string };
    };
    const operator = await account(OPERATOR);
    const alice = await account(`disabled-${Date.now()}@example.com`);
    const project = await callInstance(a, 'POST', '/v1/projects', alice.token, { name: 'Disabled' });
    const path = `/v1/local/projects/${project.body.id}/sessions`;
    const key = await callInstance(a, 'POST', `/v1/projects/${project.body.id}/api-keys`, alice.token, {
      name: 'ci',
    });
    expect(key.status).toBe(201);
    const before = new Set(descendantsOf(a.child.pid!).keys());
    const created = await callInstance(a, 'POST', path, key.body.key, {});
    expect(created.status).toBe(201);
    const browsers = [...descendantsOf(a.child.pid!)]
      .filter(([pid, command]) => !before.has(pid) && /chrom/i.test(command))
      .map(([pid]) => pid);
    expect(browsers.length).toBeGreaterThan(0);

    // Disabled through B; A holds the browser.
    const disabled = await callInstance(b, 'POST', `/v1/admin/users/${alice.id}:disable`, operator.token);
    expect(disabled.status).toBe(200);
    for (const server of [a, b]) {
      const refused = await callInstance(server, 'GET', path, key.body.key);
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe('account_disabled');
      expect((await callInstance(server, 'GET', '/v1/projects', alice.token)).body.code).toBe(
        'account_disabled',
      );
    }
    const disabledAt = Date.now();
    // B carries the release to A at once (any instance reaches any session); A's reconciler would
    // release a closed project's browser on its next pass otherwise.
    await eventually('the disabled account’s browser on A is gone', async () =>
      browsers.every((pid) => !isRunning(pid)),
    );
    console.info(`account disabled on B → its browser on A gone after ${Date.now() - disabledAt} ms`);
    expect((await callInstance(b, 'POST', `/v1/admin/users/${alice.id}:enable`, operator.token)).status).toBe(
      200,
    );
    const read = await callInstance(b, 'GET', `${path}/${created.body.id}`, key.body.key);
    expect(read.status).toBe(200);
    expect(read.body.status).toBe('COMPLETED');
  });

  it('ends the sessions its previous run left active when an instance restarts with its id', async () => {
    const created = await callInstance(b, 'POST', sessions(), token, {});
    expect(created.status).toBe(201);
    b.child.kill('SIGKILL');
    await b.exited;
    b = await startServerProcess(envOf(1), 60_000);
    expect(b.output()).toContain('"endedOwnSessions":1');
    const read = await callInstance(a, 'GET', `${sessions()}/${created.body.id}`, token);
    expect(read.body.status).toBe('ERROR');
  });

  it('ends a killed holder’s sessions ERROR on the survivors, and serves them as ended', async () => {
    const created = await callInstance(b, 'POST', sessions(), token, {});
    expect(created.status).toBe(201);
    const browsers = [...descendantsOf(b.child.pid!)].filter(([, command]) => /chrom/i.test(command));
    expect(browsers.length).toBeGreaterThan(0);
    const killedAt = Date.now();
    b.child.kill('SIGKILL');
    await b.exited;
    const ended = await eventually('the survivor ends the lost instance’s session', async () => {
      const read = await callInstance(a, 'GET', `${sessions()}/${created.body.id}`, token);
      return read.body.status === 'ERROR' ? read : false;
    });
    expect(ended.body.endedAt).toBeTruthy();
    console.info(`holder killed → session ERROR on the survivor after ${Date.now() - killedAt} ms`);
    expect(a.output()).toContain('an instance stopped answering; its sessions were ended ERROR');
    // Its browsers went with it: none is left running anywhere.
    await eventually('the killed holder’s browsers are gone', async () =>
      browsers.every(([pid]) => !isRunning(pid)),
    );
    b = await startServerProcess(envOf(1), 60_000);
  });
});
