import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MikroORM } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BrowserbaseStandIn,
  type StandInRequest,
  startBrowserbaseStandIn,
} from './browserbaseStandIn.ts';
import { createTestDatabase, type TestDatabase } from './postgres.ts';
import { type ServerProcess, startServerProcess } from './serverProcess.ts';

/** Every active session a reconciler claims per batch (SessionReconciler's default). */
const CLAIM_BATCH = 50;
const PASSWORD = 'correct horse battery';

async function call(
  server: ServerProcess,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
) {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      ...(options.body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...(options.token ? { Authorization: `Bearer ${options.token}` } : {}),
      ...options.headers,
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null, headers: response.headers };
}

/** Polls `check` every 100 ms until it holds; fails with `what` after `timeoutMs`. */
async function eventually(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Each client's session reads (`GET /v1/sessions/:id`), split into runs at pauses of `gapMs`. */
function passesOf(requests: StandInRequest[], gapMs: number): string[][] {
  const passes: string[][] = [];
  const byClient = Map.groupBy(
    requests.filter((r) => r.method === 'GET' && r.path === `/v1/sessions/${r.sessionId}`),
    (r) => r.apiKey,
  );
  for (const reads of byClient.values()) {
    let last = Number.NEGATIVE_INFINITY;
    for (const read of reads) {
      if (read.at - last > gapMs) passes.push([]);
      passes.at(-1)!.push(read.sessionId!);
      last = read.at;
    }
  }
  return passes;
}

describe('two server instances on one PostgreSQL database, Browserbase provider', () => {
  let db: TestDatabase;
  let orm: MikroORM;
  let standIn: BrowserbaseStandIn;
  let a: ServerProcess;
  let b: ServerProcess;
  const dataDir = mkdtempSync(join(tmpdir(), 'browserdeck-multi-'));
  let users = 0;

  /** A new user signed up on `a`, signed in on `b`. */
  const newUser = async () => {
    const email = `multi-${++users}@example.com`;
    expect((await call(a, 'POST', '/v1/auth/signup', { body: { email, password: PASSWORD } })).status).toBe(
      201,
    );
    const signin = await call(b, 'POST', '/v1/auth/signin', { body: { email, password: PASSWORD } });
    expect(signin.status).toBe(200);
    return { token: signin.body.access_token as string, userId: signin.body.user.id as string };
  };
  const count = async (sql: string, params: unknown[]) => {
    const [row] = await orm.em.getConnection().execute<{ n: string }[]>(sql, params);
    return Number(row?.n);
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    // Reads are held open a little, so two refreshes of one session at once would overlap.
    standIn = await startBrowserbaseStandIn({ getDelayMs: 5 });
    // One data folder: both instances sign and verify tokens with the same generated keys.
    const env = {
      DATA_DIR: dataDir,
      DATABASE_URL: db.url,
      BROWSER_PROVIDER: 'browserbase',
      BROWSERBASE_PROJECT_ID: 'test-browserbase-project',
      BROWSERBASE_BASE_URL: standIn.url,
      RECONCILE_INTERVAL_SEC: '1',
    };
    // The first applies the migrations; the second starts on a migrated database.
    // Each with its own API key, so the stand-in can tell their requests apart.
    // Named ids, so the test can give one to a second process (sharing the folder, they need none).
    a = await startServerProcess({ ...env, BROWSERBASE_API_KEY: 'test-api-key-a', LOCAL_INSTANCE_ID: 'a' });
    b = await startServerProcess({ ...env, BROWSERBASE_API_KEY: 'test-api-key-b', LOCAL_INSTANCE_ID: 'b' });
    orm = await openRawConnection(db.url);
  });

  afterAll(async () => {
    const exits = await Promise.all([a?.stop(), b?.stop()]);
    await orm?.close(true);
    await standIn?.stop();
    await db?.drop();
    rmSync(dataDir, { recursive: true, force: true });
    expect(exits).toEqual([0, 0]);
  });

  it('refuses to start a second process given the id of an instance that is running', async () => {
    const refused = startServerProcess({
      DATA_DIR: dataDir,
      DATABASE_URL: db.url,
      BROWSER_PROVIDER: 'browserbase',
      BROWSERBASE_PROJECT_ID: 'test-browserbase-project',
      BROWSERBASE_BASE_URL: standIn.url,
      BROWSERBASE_API_KEY: 'test-api-key-c',
      LOCAL_INSTANCE_ID: 'a',
    });
    await expect(refused).rejects.toThrow(
      /Another running process is already instance a .*its own LOCAL_INSTANCE_ID/s,
    );
  });

  it('leaves exactly one project after concurrent syncs of a new user spread over both instances', async () => {
    const { token, userId } = await newUser();
    const syncs = await Promise.all(
      Array.from({ length: 20 }, (_, i) => call(i % 2 ? a : b, 'POST', '/v1/auth/sync', { token })),
    );
    expect(syncs.map((s) => s.status)).toEqual(Array(20).fill(200));
    const projectIds = new Set(syncs.map((s) => s.body.project.id));
    expect(projectIds.size).toBe(1);
    expect(syncs[0]!.body.project).toMatchObject({ name: 'Default Project', slug: 'default' });
    expect(await count('select count(*) as n from projects where owner_id = ?', [userId])).toBe(1);
    const listed = await call(a, 'GET', '/v1/projects', { token });
    expect(listed.body.map((p: { id: string }) => p.id)).toEqual([...projectIds]);
  });

  it('counts sign-in attempts for one e-mail on both instances against one limit (10 a minute)', async () => {
    const email = `limited-${++users}@example.com`;
    expect((await call(a, 'POST', '/v1/auth/signup', { body: { email, password: PASSWORD } })).status).toBe(
      201,
    );
    const attempt = (server: ServerProcess) =>
      call(server, 'POST', '/v1/auth/signin', { body: { email, password: 'wrong password' } });
    const statuses = [];
    for (let i = 0; i < 10; i++) statuses.push((await attempt(i % 2 ? a : b)).status);
    expect(statuses).toEqual(Array(10).fill(401));
    for (const server of [a, b]) {
      const refused = await attempt(server);
      expect(refused.status).toBe(429);
      expect(refused.body.code).toBe('rate_limited');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });

  it('answers an Idempotency-Key replayed on the other instance with the first session, one browser', async () => {
    const { token } = await newUser();
    const project = (await call(a, 'POST', '/v1/auth/sync', { token })).body.project;
    const path = `/v1/browserbase/projects/${project.id}/sessions`;
    const body = { name: 'checkout run', timeoutSec: 120 };
    standIn.resetRecord();

    const first = await call(a, 'POST', path, { token, body, headers: { 'Idempotency-Key': 'replay-1' } });
    expect(first.status).toBe(201);
    const replay = await call(b, 'POST', path, { token, body, headers: { 'Idempotency-Key': 'replay-1' } });
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
    expect(standIn.record().creates).toBe(1);

    const other = await call(b, 'POST', path, {
      token,
      body: { ...body, name: 'another run' },
      headers: { 'Idempotency-Key': 'replay-1' },
    });
    expect(other.status).toBe(409);
    expect(other.body.code).toBe('idempotency_key_reused');
    expect(standIn.record().creates).toBe(1);
  });

  it('starts one browser for a key submitted at the same moment on both instances', async () => {
    const { token } = await newUser();
    const project = (await call(b, 'POST', '/v1/auth/sync', { token })).body.project;
    const path = `/v1/browserbase/projects/${project.id}/sessions`;
    for (let round = 0; round < 5; round++) {
      standIn.resetRecord();
      const key = `double-${round}`;
      const answers = await Promise.all(
        [a, b].map((server) =>
          call(server, 'POST', path, { token, body: {}, headers: { 'Idempotency-Key': key } }),
        ),
      );
      expect(standIn.record().creates).toBe(1);
      const created = answers.filter((r) => r.status === 201);
      expect(created.length).toBeGreaterThanOrEqual(1);
      expect(new Set(created.map((r) => r.body.id)).size).toBe(1);
      // The other one is the same session, or the in-progress conflict of http-api.md §2/§5.
      for (const answer of answers.filter((r) => r.status !== 201)) {
        expect(answer.status).toBe(409);
        expect(answer.body.code).toBe('idempotency_key_reused');
      }
      // Afterwards the key answers with that session on either instance.
      const later = await call(a, 'POST', path, { token, body: {}, headers: { 'Idempotency-Key': key } });
      expect(later.body.id).toBe(created[0]!.body.id);
    }
    expect(await count('select count(*) as n from browser_sessions where project_id = ?', [project.id])).toBe(
      5,
    );
  });

  it('never refreshes one session from both instances at once, and refreshes every one', async () => {
    const { token } = await newUser();
    const project = (await call(a, 'POST', '/v1/auth/sync', { token })).body.project;
    const path = `/v1/browserbase/projects/${project.id}/sessions`;
    // More than two claim batches of active sessions, created through both instances.
    const total = CLAIM_BATCH * 2 + 30;
    const providerIds: string[] = [];
    for (let i = 0; i < total; i += 10) {
      const created = await Promise.all(
        Array.from({ length: 10 }, (_, j) => call((i + j) % 2 ? a : b, 'POST', path, { token, body: {} })),
      );
      expect(created.map((r) => r.status)).toEqual(Array(10).fill(201));
      providerIds.push(...created.map((r) => r.body.providerSessionId as string));
    }
    standIn.resetRecord();
    // Both reconcilers run every second; wait until each session was read at least twice.
    await eventually('every session was refreshed twice', () => {
      const reads = standIn.record().reads;
      return providerIds.every((id) => (reads.get(id) ?? 0) >= 2);
    });
    expect(standIn.record().overlaps).toEqual([]);
    // Nor twice in one pass. An instance's passes are at least RECONCILE_INTERVAL_SEC apart, its
    // batches within a pass back to back: split each instance's reads where they pause for half
    // the interval (a stall can only split a pass further, never join two).
    const passes = passesOf(standIn.record().requests, 500);
    expect(passes.length).toBeGreaterThan(1);
    const rereads = passes.flatMap((pass) => pass.filter((id, i) => pass.indexOf(id) !== i));
    expect(rereads).toEqual([]);
    // The stored sessions say so too.
    const stale = await count(
      'select count(*) as n from browser_sessions where project_id = ? and last_synced_at <= created_at',
      [project.id],
    );
    expect(stale).toBe(0);
  });
});

describe('two server instances on one PostgreSQL database, local Chromium provider', () => {
  let db: TestDatabase;
  let orm: MikroORM;
  let a: ServerProcess;
  let b: ServerProcess;
  const dataDir = mkdtempSync(join(tmpdir(), 'browserdeck-multi-local-'));

  /** The stored row of a session: what every instance reads. */
  const row = async (id: string) => {
    const [found] = await orm.em
      .getConnection()
      .execute<{ status: string; provider_instance_id: string | null; last_synced_at: string | Date }[]>(
        'select status, provider_instance_id, last_synced_at from browser_sessions where id = ?',
        [id],
      );
    return found!;
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    // Each instance runs its own LocalChromiumProvider (its browsers live in that process only).
    const env = {
      DATA_DIR: dataDir,
      DATABASE_URL: db.url,
      RECONCILE_INTERVAL_SEC: '1',
      LOCAL_WARM_BROWSERS: '0',
    };
    // Named ids (sharing the folder, they would each take one of their own anyway).
    a = await startServerProcess({ ...env, LOCAL_INSTANCE_ID: 'local-a' });
    b = await startServerProcess({ ...env, LOCAL_INSTANCE_ID: 'local-b' });
    orm = await openRawConnection(db.url);
  });

  afterAll(async () => {
    const exits = await Promise.all([a?.stop(), b?.stop()]);
    await orm?.close(true);
    await db?.drop();
    rmSync(dataDir, { recursive: true, force: true });
    expect(exits).toEqual([0, 0]);
  });

  it('keeps each instance’s sessions its own to refresh, and carries B’s reads, logs and project delete to A', async () => {
    const { chromium } = await import('playwright-core');
    const email = 'local-multi@example.com';
    expect((await call(a, 'POST', '/v1/auth/signup', { body: { email, password: PASSWORD } })).status).toBe(
      201,
    );
    const token = (await call(b, 'POST', '/v1/auth/signin', { body: { email, password: PASSWORD } })).body
      .access_token as string;
    const project = (await call(a, 'POST', '/v1/auth/sync', { token })).body.project;
    const base = `/v1/local/projects/${project.id}/sessions`;

    const created = await call(a, 'POST', base, { token, body: { timeoutSec: 300 } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: 'RUNNING', provider: 'local' });
    const id = created.body.id as string;
    const path = `${base}/${id}`;
    expect((await row(id)).provider_instance_id).toBe('local-a');
    const browser = await chromium.connectOverCDP(created.body.connectUrl);
    try {
      const page = await browser.contexts()[0]!.newPage();
      await page.setContent('<p id="p">on A</p>');
      await page.evaluate(() => console.log('logged on A'));

      // One on B too. Both reconcilers run every second: each refreshes its own session, and
      // neither takes the other's as gone.
      const onB = await call(b, 'POST', base, { token, body: { timeoutSec: 300 } });
      expect(onB.status).toBe(201);
      const idOnB = onB.body.id as string;
      const synced = async () => [
        new Date((await row(id)).last_synced_at).getTime(),
        new Date((await row(idOnB)).last_synced_at).getTime(),
      ];
      const [firstA, firstB] = await synced();
      await eventually('each instance refreshed its own session twice', async () => {
        const [syncedA, syncedB] = await synced();
        return syncedA! > firstA! + 1000 && syncedB! > firstB! + 1000;
      });
      expect([(await row(id)).status, (await row(idOnB)).status]).toEqual(['RUNNING', 'RUNNING']);
      expect((await row(idOnB)).provider_instance_id).toBe('local-b');

      // B reads it fresh from A, and A's logs.
      const readOnB = await call(b, 'GET', path, { token });
      expect(readOnB.status).toBe(200);
      expect(readOnB.body).toMatchObject({ id, status: 'RUNNING', endedAt: null });
      expect(readOnB.headers.get('x-sync-error')).toBeNull();
      const logsOnB = await call(b, 'GET', `${path}/logs`, { token });
      expect(logsOnB.status).toBe(200);
      expect(JSON.stringify(logsOnB.body)).toContain('logged on A');
      expect(browser.isConnected()).toBe(true);
      expect(await page.textContent('#p')).toBe('on A');

      // B deletes the project: its own session and A's are released (A's by A), then it is gone.
      expect((await call(b, 'DELETE', `/v1/projects/${project.id}`, { token })).status).toBe(204);
      await eventually('A’s browser is gone', () => !browser.isConnected());
      expect((await call(a, 'GET', `/v1/projects/${project.id}`, { token })).status).toBe(404);
    } finally {
      await browser.close().catch(() => {});
    }
  });
});

/** A connection of the test's own, with no entities, to read what the servers stored. */
function openRawConnection(url: string): Promise<MikroORM> {
  return MikroORM.init({
    clientUrl: url,
    entities: [],
    discovery: { warnWhenNoEntities: false },
    pool: { min: 0, max: 1 },
  });
}
