import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeLogCursor } from '@browserdeck/domain';
import { upgradeStatus } from '@browserdeck/testing/local-chromium';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './postgres.ts';
import { type ServerProcess, startServerProcess } from './serverProcess.ts';

const json = { 'Content-Type': 'application/json' };

async function call(
  server: ServerProcess,
  method: string,
  path: string,
  options: { token?: string; body?: unknown } = {},
) {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      ...(options.body === undefined ? {} : json),
      ...(options.token ? { Authorization: `Bearer ${options.token}` } : {}),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null, headers: response.headers };
}

/**
 * A POST sent with `Expect: 100-continue`: `accepted` resolves when the server has read the headers
 * (the request is in flight on the server), `sendBody` then sends the body and reads the answer.
 */
function postAfterContinue(server: ServerProcess, path: string, body: unknown) {
  const payload = JSON.stringify(body);
  const req = request(`${server.url}${path}`, {
    method: 'POST',
    headers: { ...json, 'Content-Length': Buffer.byteLength(payload), Expect: '100-continue' },
  });
  const answer = new Promise<{ status: number; body: { user: { email: string } } }>(
    (resolveAnswer, reject) => {
      req.on('error', reject);
      req.on('response', (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          text += chunk;
        });
        res.on('end', () => resolveAnswer({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
      });
    },
  );
  const accepted = new Promise<void>((resolveAccepted, reject) => {
    req.on('continue', () => resolveAccepted());
    answer.catch(reject);
  });
  req.flushHeaders();
  return {
    accepted,
    sendBody: () => {
      req.end(payload);
      return answer;
    },
  };
}

/** The README walk-through: sign up, sign in, sync, create a project, list. */
async function walkThrough(server: ServerProcess, email: string) {
  const signup = await call(server, 'POST', '/v1/auth/signup', {
    body: { email, password: 'correct horse battery', metadata: { name: 'Ada' } },
  });
  expect(signup.status).toBe(201);
  expect(signup.body).toEqual({ user: { id: expect.any(String), email } });
  const signin = await call(server, 'POST', '/v1/auth/signin', {
    body: { email, password: 'correct horse battery' },
  });
  expect(signin.status).toBe(200);
  expect(signin.body).toMatchObject({ token_type: 'bearer', expires_in: 900, user: signup.body.user });
  const token = signin.body.access_token as string;
  const sync = await call(server, 'POST', '/v1/auth/sync', { token });
  expect(sync.status).toBe(200);
  expect(sync.body.project).toMatchObject({ name: 'Default Project', slug: 'default' });
  const created = await call(server, 'POST', '/v1/projects', { token, body: { name: 'Checkout tests' } });
  expect(created.status).toBe(201);
  expect(created.body).toMatchObject({ name: 'Checkout tests', slug: 'checkout-tests', archived: false });
  const list = await call(server, 'GET', '/v1/projects', { token });
  expect(list.status).toBe(200);
  expect(list.body.map((p: { slug: string }) => p.slug)).toEqual(['checkout-tests', 'default']);
  return { token, refreshToken: signin.body.refresh_token as string };
}

describe('the standalone server (npm start)', () => {
  const dirs: string[] = [];
  const databases: TestDatabase[] = [];
  const dataDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'browserdeck-server-'));
    dirs.push(dir);
    return dir;
  };
  afterAll(async () => {
    for (const db of databases) await db.drop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('serves the README walk-through on SQLite and keeps data and tokens across a restart', async () => {
    const DATA_DIR = dataDir();
    const first = await startServerProcess({ DATA_DIR });
    const { token } = await walkThrough(first, 'ada@example.com');
    expect(await first.stop()).toBe(0);

    const second = await startServerProcess({ DATA_DIR });
    try {
      const list = await call(second, 'GET', '/v1/projects', { token });
      expect(list.status).toBe(200);
      expect(list.body).toHaveLength(2);
      expect((await call(second, 'GET', '/readyz')).status).toBe(200);
    } finally {
      expect(await second.stop()).toBe(0);
    }
  });

  it('serves the walk-through on PostgreSQL, two instances sharing one database', async () => {
    const db = await createTestDatabase();
    databases.push(db);
    const DATA_DIR = dataDir();
    const [a, b] = await Promise.all([
      startServerProcess({ DATA_DIR, DATABASE_URL: db.url }),
      startServerProcess({ DATA_DIR, DATABASE_URL: db.url }),
    ]);
    try {
      const { token } = await walkThrough(a!, 'grace@example.com');
      // The other instance accepts the token and sees the same projects.
      const list = await call(b!, 'GET', '/v1/projects', { token });
      expect(list.body).toHaveLength(2);
      // Sign-out on one instance is honoured at once by the other.
      expect((await call(b!, 'POST', '/v1/auth/signout', { token })).status).toBe(200);
      expect((await call(a!, 'GET', '/v1/auth/me', { token })).status).toBe(401);
    } finally {
      expect(await a!.stop()).toBe(0);
      expect(await b!.stop()).toBe(0);
    }
  });

  it('finishes in-flight requests on SIGTERM, refuses new ones, and exits 0', async () => {
    const server = await startServerProcess({ DATA_DIR: dataDir() });
    // Each sign-up is in flight once the server has answered "100 Continue" to its headers: only
    // then is the signal sent, and only then is the body (and argon2id's work) still to come.
    const inFlight = Array.from({ length: 4 }, (_, i) =>
      postAfterContinue(server, '/v1/auth/signup', { email: `u${i}@example.com`, password: 'password-123' }),
    );
    await Promise.all(inFlight.map((request) => request.accepted));
    server.child.kill('SIGTERM');
    const results = await Promise.all(inFlight.map((request) => request.sendBody()));
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    expect(results.map((r) => r.body.user.email)).toEqual([0, 1, 2, 3].map((i) => `u${i}@example.com`));
    expect(await server.exited).toBe(0);
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
  });

  it('refuses to start on a bad variable, naming it', async () => {
    await expect(startServerProcess({ DATA_DIR: dataDir(), ACCESS_TOKEN_TTL_SEC: 'soon' })).rejects.toThrow(
      /exited with 1[\s\S]*ACCESS_TOKEN_TTL_SEC/,
    );
  });
});

describe('sessions through the standalone server with the local Chromium provider', () => {
  it('hands out a session Playwright drives through connectUrl, then releases it', async () => {
    const { chromium } = await import('playwright-core');
    const dir = mkdtempSync(join(tmpdir(), 'browserdeck-server-'));
    const server = await startServerProcess({ DATA_DIR: dir, LOCAL_WARM_BROWSERS: '1' });
    try {
      await call(server, 'POST', '/v1/auth/signup', {
        body: { email: 'lin@example.com', password: 'password-123' },
      });
      const signin = await call(server, 'POST', '/v1/auth/signin', {
        body: { email: 'lin@example.com', password: 'password-123' },
      });
      const token = signin.body.access_token as string;
      const project = (await call(server, 'POST', '/v1/auth/sync', { token })).body.project;
      const base = `/v1/cloudbrowser/projects/${project.id}/sessions`;

      const created = await call(server, 'POST', base, {
        token,
        body: { env: { GREETING: 'hi' }, timeoutSec: 120 },
      });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        status: 'RUNNING',
        provider: 'local',
        region: 'local',
        timeoutSec: 120,
      });
      expect(created.body.userMetadata).toEqual({ script: '', env: { GREETING: 'hi' } });
      expect(created.body.connectUrl).toMatch(
        new RegExp(`^${server.url.replace('http', 'ws')}/v1/local/sessions/`),
      );

      const browser = await chromium.connectOverCDP(created.body.connectUrl);
      const page = await browser.contexts()[0]!.newPage();
      await page.setContent('<title>deck</title><p id="p">hello</p>');
      expect(await page.textContent('#p')).toBe('hello');
      // On npm start's defaults a page cannot reach the host's loopback: not even this server's /metrics.
      const probe = await browser.contexts()[0]!.newPage();
      const refusedPage = await probe.goto(`${server.url}/metrics`);
      expect(refusedPage?.status()).toBe(403);
      expect(await probe.textContent('p')).toMatch(
        /^Browserdeck egress policy refused .*\/metrics: loopback/,
      );
      await probe.close();

      // Console output reaches the logs, paged with cursors signed by the server's key.
      await page.evaluate(() => {
        console.log('one');
        console.log('two');
      });
      const logs = `${base}/${created.body.id}/logs`;
      await expect
        .poll(async () => (await call(server, 'GET', logs, { token })).body.logs.length)
        .toBeGreaterThanOrEqual(2);
      const first = await call(server, 'GET', `${logs}?limit=1`, { token });
      expect(first.body.nextCursor).toEqual(expect.any(String));
      const next = await call(server, 'GET', `${logs}?limit=1&cursor=${first.body.nextCursor}`, { token });
      expect(next.status).toBe(200);
      expect(next.body.logs).toHaveLength(1);
      // The cursor an unkeyed checksum would give for the same offset is a forgery here.
      const unkeyed = encodeLogCursor(created.body.id, 1);
      expect(unkeyed).not.toBe(first.body.nextCursor);
      const refused = await call(server, 'GET', `${logs}?cursor=${unkeyed}`, { token });
      expect(refused.status).toBe(400);
      expect(refused.body.errors).toEqual([
        { path: 'cursor', message: 'is not a cursor this endpoint gave out' },
      ]);

      // A WebSocket handshake anywhere else is an API 404 too, not a dropped connection.
      expect(await upgradeStatus(`${server.url.replace('http', 'ws')}/v1/projects?signingKey=x`)).toBe(404);

      const forged = created.body.connectUrl.replace(/signingKey=[^&]+/, 'signingKey=forged');
      await expect(chromium.connectOverCDP(forged, { timeout: 5000 })).rejects.toThrow();

      const released = await call(server, 'POST', `${base}/${created.body.id}:release`, { token });
      expect(released.status).toBe(200);
      expect(released.body.status).toBe('COMPLETED');
      expect(released.body.endedAt).not.toBeNull();
      await expect(chromium.connectOverCDP(created.body.connectUrl, { timeout: 5000 })).rejects.toThrow();
      await browser.close().catch(() => {});

      const stats = await call(server, 'GET', `${base}/dashboard/stats`, { token });
      expect(stats.body).toMatchObject({ total: 1, byStatus: { COMPLETED: 1, RUNNING: 0 } });

      const metrics = await (await fetch(`${server.url}/metrics`)).text();
      expect(metrics).toContain(
        'browserdeck_provider_calls_total{provider="local",operation="create",outcome="ok"} 1',
      );
      expect(metrics).toContain(
        'browserdeck_provider_calls_total{provider="local",operation="release",outcome="ok"} 1',
      );
      expect(metrics).toContain('browserdeck_active_sessions 0');
      expect(metrics).toMatch(
        /browserdeck_http_requests_total\{method="POST",route="[^"]+sessions",status="201"\} 1/,
      );
    } finally {
      expect(await server.stop()).toBe(0);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
