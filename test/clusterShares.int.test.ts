import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, sharedInstanceSecrets } from './instancesApi.ts';
import { createTestDatabase, type TestDatabase } from './postgres.ts';
import { type RunJson, type RunsUser, runsUser, signUpUser } from './runsApi.ts';
import { type ServerProcess, startServerProcess } from './serverProcess.ts';

interface SessionJson {
  id: string;
  status: string;
}

/**
 * SPEC §16: the per-account shares hold across the cluster, not per instance. Two server processes
 * on one PostgreSQL database, each with its own data folder: an account's local sessions
 * (`LOCAL_MAX_SESSIONS_PER_OWNER=1`) and its active runs (`RUN_MAX_ACTIVE_PER_OWNER=1`) are counted
 * across both, and the slots of an instance that dies are freed when the other declares it lost.
 */
describe('per-account shares across two instances on one PostgreSQL database', () => {
  let db: TestDatabase;
  let a: ServerProcess;
  let b: ServerProcess;
  const dirs = [0, 1].map(() => mkdtempSync(join(tmpdir(), 'browserdeck-shares-')));
  const shared = {
    ...sharedInstanceSecrets(),
    // Lost after 3 s without a heartbeat (the last test kills an instance).
    RECONCILE_INTERVAL_SEC: '6',
    LOCAL_WARM_BROWSERS: '0',
    LOCAL_MAX_SESSIONS: '3',
    LOCAL_MAX_SESSIONS_PER_OWNER: '1',
    RUN_CONCURRENCY: '2',
    RUN_MAX_ACTIVE_PER_OWNER: '1',
  };
  const envOf = (i: 0 | 1) => ({
    ...shared,
    DATABASE_URL: db.url,
    DATA_DIR: dirs[i]!,
    LOCAL_INSTANCE_ID: `share-${i}`,
  });
  /** The same user through each instance. */
  const onBoth = async (): Promise<[RunsUser, RunsUser]> => {
    const onA = await signUpUser(a.url);
    return [onA, runsUser(b.url, onA.token, onA.projectId)];
  };
  const create = (user: RunsUser) => user.call<SessionJson>('POST', `${user.base}/sessions`, {});
  const release = (user: RunsUser, id: string) =>
    user.call<SessionJson>('POST', `${user.base}/sessions/${id}:release`);

  beforeAll(async () => {
    db = await createTestDatabase();
    // The first applies the migrations; the second starts on a migrated database.
    a = await startServerProcess(envOf(0), 60_000);
    b = await startServerProcess(envOf(1), 60_000);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await db?.drop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it("refuses an account's second session on the other instance (429, its fair share), until the first is released", async () => {
    const [aliceOnA, aliceOnB] = await onBoth();
    const first = await create(aliceOnA);
    expect(first.status, JSON.stringify(first.body)).toBe(201);

    const refused = await create(aliceOnB);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({
      status: 429,
      code: 'provider_rate_limited',
      detail: expect.stringContaining('fair share of 1 local sessions'),
    });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);

    // Another account still gets its own slot on B while Alice holds hers.
    const [, bobOnB] = await onBoth();
    const bobs = await create(bobOnB);
    expect(bobs.status, JSON.stringify(bobs.body)).toBe(201);

    expect((await release(aliceOnA, first.body.id)).status).toBe(200);
    const second = await create(aliceOnB);
    expect(second.status, JSON.stringify(second.body)).toBe(201);
    // Her share is taken again, now by B's session: A refuses her.
    expect((await create(aliceOnA)).status).toBe(429);

    expect((await release(aliceOnB, second.body.id)).status).toBe(200);
    expect((await release(bobOnB, bobs.body.id)).status).toBe(200);
  }, 120_000);

  it("never runs two of an account's runs at once, whichever instance takes them (RUN_MAX_ACTIVE_PER_OWNER=1)", async () => {
    const [onA, onB] = await onBoth();
    const agentId = await onA.agent(
      "await page.goto('data:text/html,<title>run ' + input.n + '</title>'); await new Promise((r) => setTimeout(r, 400)); return await page.title();",
    );
    const runs: RunJson[] = [];
    for (let n = 0; n < 6; n++) runs.push((await (n % 2 ? onB : onA).start(agentId, { input: { n } })).body);
    // Watch while they run: never two RUNNING at once.
    let most = 0;
    const ended = await eventually(
      'every run ended',
      async () => {
        const page = await onA.call<{ runs: RunJson[] }>('GET', `${onA.base}/runs?limit=100`);
        expect(page.status).toBe(200);
        const mine = page.body.runs.filter((run) => runs.some((r) => r.id === run.id));
        most = Math.max(most, mine.filter((run) => run.status === 'RUNNING').length);
        return mine.length === runs.length && mine.every((run) => run.endedAt !== null) ? mine : false;
      },
      180_000,
    );
    expect(most).toBeLessThanOrEqual(1);
    expect(ended.map((run) => run.status)).toEqual(runs.map(() => 'SUCCEEDED'));
    // And as stored: each run started after the one before it ended.
    const spans = ended
      .map((run) => [Date.parse(run.startedAt as string), Date.parse(run.endedAt as string)] as const)
      .sort((x, y) => x[0] - y[0]);
    for (let i = 1; i < spans.length; i++) expect(spans[i]![0]).toBeGreaterThanOrEqual(spans[i - 1]![1]);
  }, 200_000);

  it("frees a killed instance's slots once the other declares it lost", async () => {
    const [carolOnA, carolOnB] = await onBoth();
    const held = await create(carolOnB);
    expect(held.status, JSON.stringify(held.body)).toBe(201);
    expect((await create(carolOnA)).status).toBe(429);

    b.child.kill('SIGKILL');
    await b.exited;
    const created = await eventually(
      'A declares B lost and gives Carol her slot back',
      async () => {
        const answer = await create(carolOnA);
        return answer.status === 201 ? answer : false;
      },
      60_000,
    );
    expect(created.body.status).toBe('RUNNING');
    expect(a.output()).toContain('an instance stopped answering; its sessions were ended ERROR');
    const lost = await carolOnA.call<SessionJson>('GET', `${carolOnA.base}/sessions/${held.body.id}`);
    expect(lost.body.status).toBe('ERROR');
    expect((await release(carolOnA, created.body.id)).status).toBe(200);
  }, 120_000);
});
