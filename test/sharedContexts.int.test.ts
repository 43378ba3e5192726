import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callInstance, eventually, sharedInstanceSecrets, through } from './instancesApi.ts';
import { createTestDatabase, type TestDatabase } from './postgres.ts';
import { givenProjectApiKey } from './projectApiKey.ts';
import { signUpUser } from './runsApi.ts';
import { type ServerProcess, startServerProcess } from './serverProcess.ts';

/**
 * SPEC §16, "a context profile saved on one opens on any other": two instances on one PostgreSQL
 * database, each with its own data folder. A session saving to a context on A sets a cookie; a
 * session on B opens the context with it, through the native API and the Browserbase one. While a
 * session saves to a context, neither instance opens or deletes it.
 */
describe('instances with separate data folders: a context saved through one opens on the other', () => {
  let db: TestDatabase;
  let a: ServerProcess;
  let b: ServerProcess;
  let site: Server;
  let siteUrl = '';
  const dirs = [0, 1].map(() => mkdtempSync(join(tmpdir(), 'browserdeck-shared-contexts-')));

  beforeAll(async () => {
    // `/set?value=v` sets a persistent cookie; `/` echoes the Cookie header.
    site = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      const value = url.searchParams.get('value');
      res.writeHead(200, {
        'Content-Type': 'text/plain',
        ...(url.pathname === '/set' && value ? { 'Set-Cookie': `deck=${value}; Max-Age=3600; Path=/` } : {}),
      });
      res.end(req.headers.cookie ?? '');
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const sitePort = (site.address() as AddressInfo).port;
    siteUrl = `http://127.0.0.1:${sitePort}`;
    db = await createTestDatabase();
    const shared = {
      ...sharedInstanceSecrets(),
      DATABASE_URL: db.url,
      LOCAL_WARM_BROWSERS: '0',
      LOCAL_MAX_SESSIONS: '3',
      EGRESS_ALLOW: `127.0.0.1:${sitePort}`,
      // Lost after 3 s without a heartbeat (the last test kills an instance).
      RECONCILE_INTERVAL_SEC: '6',
    };
    // One after the other: the first runs the migrations.
    a = await startServerProcess({ ...shared, DATA_DIR: dirs[0]!, LOCAL_INSTANCE_ID: 'a' }, 60_000);
    b = await startServerProcess({ ...shared, DATA_DIR: dirs[1]!, LOCAL_INSTANCE_ID: 'b' }, 60_000);
  }, 150_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await db?.drop();
    await new Promise((resolve) => site?.close(resolve));
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  /** The cookie the site sees in a session (after setting `set`, when given), through `server`. */
  const cookieIn = async (server: ServerProcess, connectUrl: string, set?: string) => {
    const browser = await chromium.connectOverCDP(through(server, connectUrl));
    try {
      const page = browser.contexts()[0]!.pages()[0] ?? (await browser.contexts()[0]!.newPage());
      if (set) await page.goto(`${siteUrl}/set?value=${set}`);
      await page.goto(siteUrl);
      return await page.textContent('body');
    } finally {
      await browser.close();
    }
  };

  it('opens a named context on B with the cookie a session saved on A, and back (native API)', async () => {
    const user = await signUpUser(a.url);
    const sessions = `/v1/local/projects/${user.projectId}/sessions`;
    const writer = await callInstance(a, 'POST', sessions, user.token, { contextId: 'login' });
    expect(writer.status, JSON.stringify(writer.body)).toBe(201);
    expect(await cookieIn(a, writer.body.connectUrl, 'saved-on-a')).toBe('deck=saved-on-a');

    // Held on both instances while it saves: B does not open it.
    const busy = await callInstance(b, 'POST', sessions, user.token, { contextId: 'login' });
    expect(busy.status).toBe(429);
    expect(busy.headers.get('retry-after')).toBe('5');
    const released = await callInstance(a, 'POST', `${sessions}/${writer.body.id}:release`, user.token);
    expect(released.status).toBe(200);

    const reader = await callInstance(b, 'POST', sessions, user.token, { contextId: 'login' });
    expect(reader.status, JSON.stringify(reader.body)).toBe(201);
    expect(await cookieIn(b, reader.body.connectUrl)).toBe('deck=saved-on-a');
    expect((await callInstance(b, 'POST', `${sessions}/${reader.body.id}:release`, user.token)).status).toBe(
      200,
    );

    // The profile is in the database, and neither data folder holds a context folder of its own.
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      const { rows } = await client.query(
        'select id, size, version from browser_contexts where project_id = $1',
        [user.projectId],
      );
      expect(rows).toEqual([{ id: 'login', size: expect.any(Number), version: expect.any(String) }]);
      expect(rows[0].size).toBeGreaterThan(0);
      const blobs = await client.query(`select key from stored_blobs where key like $1`, [
        `contexts/${user.projectId}/%`,
      ]);
      expect(blobs.rows.map((row) => row.key)).toEqual([
        `contexts/${user.projectId}/login/${rows[0].version}`,
      ]);
    } finally {
      await client.end();
    }
    for (const dir of dirs) expect(existsSync(join(dir, 'contexts', user.projectId))).toBe(false);

    // A deleted project keeps no profile: its rows and its stored saves go, on every instance's disk here.
    expect((await callInstance(b, 'DELETE', `/v1/projects/${user.projectId}`, user.token)).status).toBe(204);
    const left = new pg.Client({ connectionString: db.url });
    await left.connect();
    try {
      const keys = await left.query('select key from stored_blobs where key like $1', [
        `contexts/${user.projectId}/%`,
      ]);
      expect(keys.rows).toEqual([]);
      expect(
        (await left.query('select id from browser_contexts where project_id = $1', [user.projectId])).rows,
      ).toEqual([]);
    } finally {
      await left.end();
    }
    expect(existsSync(join(dirs[1]!, 'context-cache', 'b', 'contexts', user.projectId))).toBe(false);
  });

  it('creates a context through A, saves to it on A and opens it on B (Browserbase API)', async () => {
    const { projectId, key } = await givenProjectApiKey(a, `contexts-${Date.now()}@example.com`);
    const bb = (server: ServerProcess, method: string, path: string, body?: unknown) =>
      fetch(`${server.url}${path}`, {
        method,
        headers: {
          'X-BB-API-Key': key,
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const created = await bb(a, 'POST', '/v1/contexts', { projectId });
    expect(created.status).toBe(201);
    const context = (await created.json()) as { id: string; createdAt: string };
    const got = await bb(b, 'GET', `/v1/contexts/${context.id}`);
    expect(got.status).toBe(200);

    const open = async (server: ServerProcess, persist: boolean) => {
      const answer = await bb(server, 'POST', '/v1/sessions', {
        projectId,
        browserSettings: { context: { id: context.id, persist } },
      });
      expect(answer.status).toBe(201);
      return (await answer.json()) as { id: string; connectUrl: string };
    };
    const release = async (server: ServerProcess, id: string) =>
      expect((await bb(server, 'POST', `/v1/sessions/${id}`, { status: 'REQUEST_RELEASE' })).status).toBe(
        200,
      );

    const writer = await open(a, true);
    expect(await cookieIn(a, writer.connectUrl, 'browserbase')).toBe('deck=browserbase');
    expect((await bb(b, 'DELETE', `/v1/contexts/${context.id}`)).status).toBe(409);
    await release(a, writer.id);
    const saved = (await (await bb(b, 'GET', `/v1/contexts/${context.id}`)).json()) as { updatedAt: string };
    expect(Date.parse(saved.updatedAt)).toBeGreaterThan(Date.parse(context.createdAt));

    const reader = await open(b, false);
    expect(await cookieIn(b, reader.connectUrl)).toBe('deck=browserbase');
    await release(b, reader.id);
    expect((await bb(b, 'DELETE', `/v1/contexts/${context.id}`)).status).toBe(204);
    expect((await bb(a, 'GET', `/v1/contexts/${context.id}`)).status).toBe(404);
  });

  it('lets go of the context a killed instance’s session saved to: it opens elsewhere with the last save', async () => {
    const user = await signUpUser(a.url);
    const sessions = `/v1/local/projects/${user.projectId}/sessions`;
    const first = await callInstance(b, 'POST', sessions, user.token, { contextId: 'kept' });
    expect(await cookieIn(b, first.body.connectUrl, 'last-save')).toBe('deck=last-save');
    expect((await callInstance(b, 'POST', `${sessions}/${first.body.id}:release`, user.token)).status).toBe(
      200,
    );
    const writer = await callInstance(b, 'POST', sessions, user.token, { contextId: 'kept' });
    expect(writer.status).toBe(201);
    expect((await callInstance(a, 'POST', sessions, user.token, { contextId: 'kept' })).status).toBe(429);

    b.child.kill('SIGKILL');
    const reopened = await eventually(
      'A opens the context once B is declared lost',
      async () => {
        const answer = await callInstance(a, 'POST', sessions, user.token, { contextId: 'kept' });
        if (answer.status === 429) return false;
        return answer;
      },
      60_000,
    );
    expect(reopened.status).toBe(201);
    expect(await cookieIn(a, reopened.body.connectUrl)).toBe('deck=last-save');
    expect(
      (await callInstance(a, 'POST', `${sessions}/${reopened.body.id}:release`, user.token)).status,
    ).toBe(200);
  });
});
