import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type SeleniumGrid, startSeleniumGrid } from '@browserdeck/testing/selenium-grid';
import { chromium } from 'playwright-core';
import { By, Session, WebDriver } from 'selenium-webdriver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callInstance, eventually, sharedInstanceSecrets, through } from './instancesApi.ts';
import { createTestDatabase, type TestDatabase } from './postgres.ts';
import { type ServerProcess, startServerProcess } from './serverProcess.ts';

const { Executor, HttpClient } = createRequire(import.meta.url)(
  'selenium-webdriver/http',
) as typeof import('selenium-webdriver/http.js');
const PASSWORD = 'correct horse battery';

/** The Grid's own sessions, as its GraphQL endpoint lists them. */
async function gridSessions(grid: SeleniumGrid): Promise<string[]> {
  const response = await fetch(`${grid.url}/graphql`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json; charset=utf-8' },
    body: JSON.stringify({ query: '{ sessionsInfo { sessions { id } } }' }),
  });
  const body = (await response.json()) as { data: { sessionsInfo: { sessions: { id: string }[] } } };
  return body.data.sessionsInfo.sessions.map((s) => s.id);
}

/**
 * SPEC §15 end to end through `npm start`: `BROWSER_PROVIDER=selenium-grid` on a real Selenium Grid 4
 * (a hub and two nodes), two instances on one PostgreSQL behind a "balancer" (requests sent to either).
 * Playwright drives a session over `connectUrl` and selenium-webdriver over `seleniumRemoteUrl`, both
 * through the instance that does not hold it; release deletes the Grid session; a timeout ends it;
 * a killed holder's sessions end ERROR and leave no Grid session behind.
 */
describe('BROWSER_PROVIDER=selenium-grid through npm start, two instances', () => {
  let grid: SeleniumGrid;
  let db: TestDatabase;
  let a: ServerProcess;
  let b: ServerProcess;
  let token = '';
  let projectId = '';
  const dirs = [0, 1].map(() => mkdtempSync(join(tmpdir(), 'browserdeck-grid-')));
  const shared = {
    ...sharedInstanceSecrets(),
    BROWSER_PROVIDER: 'selenium-grid',
    RECONCILE_INTERVAL_SEC: '10',
  };
  const envOf = (i: 0 | 1) => ({
    ...shared,
    SELENIUM_GRID_URL: grid.url,
    DATABASE_URL: db.url,
    DATA_DIR: dirs[i]!,
    LOCAL_INSTANCE_ID: `grid-${i}`,
  });
  const sessions = () => `/v1/selenium-grid/projects/${projectId}/sessions`;

  beforeAll(async () => {
    [grid, db] = await Promise.all([
      startSeleniumGrid({ topology: 'hub-and-nodes', nodes: 2, maxSessionsPerNode: 2 }),
      createTestDatabase(),
    ]);
    a = await startServerProcess(envOf(0), 60_000);
    b = await startServerProcess(envOf(1), 60_000);
    const email = `grid-${Date.now()}@example.com`;
    expect(
      (await callInstance(a, 'POST', '/v1/auth/signup', undefined, { email, password: PASSWORD })).status,
    ).toBe(201);
    token = (await callInstance(b, 'POST', '/v1/auth/signin', undefined, { email, password: PASSWORD })).body
      .access_token;
    const project = await callInstance(b, 'POST', '/v1/projects', token, { name: 'Grid' });
    expect(project.status).toBe(201);
    projectId = project.body.id;
  }, 180_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await grid?.close();
    await db?.drop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('serves one Grid session to Playwright and selenium-webdriver through either instance, and release deletes it', async () => {
    const created = await callInstance(a, 'POST', sessions(), token, {});
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: 'RUNNING', provider: 'selenium-grid' });
    const { id, providerSessionId } = created.body as { id: string; providerSessionId: string };
    expect(await gridSessions(grid)).toContain(providerSessionId);
    expect(created.body.connectUrl).toMatch(
      /^ws:\/\/.+\/v1\/selenium-grid\/sessions\/.+\/connect\?signingKey=/,
    );

    const browser = await chromium.connectOverCDP(through(b, created.body.connectUrl));
    const context = browser.contexts()[0]!;
    const page = context.pages()[0] ?? (await context.newPage());
    await page.setContent('<title>grid</title><p id="p">from playwright</p>');
    await page.evaluate(() => console.log('grid console line'));

    const driver = new WebDriver(
      new Session(id, {}),
      new Executor(new HttpClient(through(b, created.body.seleniumRemoteUrl))),
    );
    expect(await driver.findElement(By.id('p')).getText()).toBe('from playwright');
    await driver.get('data:text/html,<title>selenium</title>');
    expect(await page.title()).toBe('selenium');

    const logs = await eventually('the console line is in the logs read through B', async () => {
      const answer = await callInstance(b, 'GET', `${sessions()}/${id}/logs`, token);
      return answer.status === 200 && JSON.stringify(answer.body).includes('grid console line')
        ? answer
        : false;
    });
    expect(logs.status).toBe(200);
    await browser.close();

    const released = await callInstance(b, 'POST', `${sessions()}/${id}:release`, token);
    expect(released.status).toBe(200);
    expect(released.body.status).toBe('COMPLETED');
    await eventually(
      'the Grid no longer has the session',
      async () => !(await gridSessions(grid)).includes(providerSessionId),
    );
  });

  it('ends a session at its timeout, deleting it on the Grid', async () => {
    const created = await callInstance(b, 'POST', sessions(), token, { timeoutSec: 60 });
    expect(created.status).toBe(201);
    const ended = await eventually('the session times out', async () => {
      const read = await callInstance(a, 'GET', `${sessions()}/${created.body.id}`, token);
      return read.body.status === 'TIMED_OUT' ? read : false;
    });
    expect(ended.body.endedAt).toBeTruthy();
    await eventually(
      'the Grid no longer has the session',
      async () => !(await gridSessions(grid)).includes(created.body.providerSessionId),
    );
  }, 120_000);

  it('ends a killed holder’s sessions ERROR and deletes them on the Grid from a survivor', async () => {
    const created = await callInstance(b, 'POST', sessions(), token, {});
    expect(created.status).toBe(201);
    b.child.kill('SIGKILL');
    await b.exited;
    await eventually('the survivor ends the lost instance’s session', async () => {
      const read = await callInstance(a, 'GET', `${sessions()}/${created.body.id}`, token);
      return read.body.status === 'ERROR' ? read : false;
    });
    await eventually(
      'the Grid no longer has the session',
      async () => !(await gridSessions(grid)).includes(created.body.providerSessionId),
    );
    b = await startServerProcess(envOf(1), 60_000);
  }, 120_000);
});
