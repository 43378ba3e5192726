import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RUN_HEARTBEAT_LAPSE_MS } from '@browserdeck/domain';
import { MikroORM } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './postgres.ts';
import { descendantsOf, isRunning } from './processTree.ts';
import { type RunJson, runsUser, signUpUser, until } from './runsApi.ts';
import { type ServerProcess, startServerProcess } from './serverProcess.ts';

/**
 * Runs on PostgreSQL end to end (http-api.md §11), with server processes started as `npm start` and
 * `npm run worker` start them: two instances share the runs of one database and execute each once;
 * a worker killed mid-run leaves the run FAILED `worker_lost`, swept by an API-only instance.
 */

/** Between two sweeps for lost runs (RunWorker's default), and slack for a busy machine. */
const SWEEP_INTERVAL_MS = 5_000;
const SLACK_MS = 10_000;

describe('two server instances on one PostgreSQL database, both workers', () => {
  let db: TestDatabase;
  let dataDir: string;
  let a: ServerProcess;
  let b: ServerProcess;

  beforeAll(async () => {
    db = await createTestDatabase();
    // One data folder: both sign and verify tokens with the same generated keys.
    dataDir = mkdtempSync(join(tmpdir(), 'browserdeck-runs-pg-'));
    // One account's runs may take every slot of both instances: sharing is what this checks, not
    // fairness. Its share of sessions holds across the instances (SPEC §16): 4 in all, as its runs.
    const env = {
      DATA_DIR: dataDir,
      DATABASE_URL: db.url,
      LOCAL_MAX_SESSIONS: '4',
      LOCAL_MAX_SESSIONS_PER_OWNER: '4',
      RUN_CONCURRENCY: '2',
      RUN_MAX_ACTIVE_PER_OWNER: '4',
    };
    // The first applies the migrations; the second starts on a migrated database.
    a = await startServerProcess(env, 60_000);
    b = await startServerProcess(env, 60_000);
  });

  afterAll(async () => {
    const exits = await Promise.all([a?.stop(), b?.stop()]);
    await db?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    expect(exits).toEqual([0, 0]);
  });

  it('execute 10 runs, submitted to both, each exactly once', async () => {
    const onA = await signUpUser(a.url);
    // The same user and project, through the other instance.
    const onB = runsUser(b.url, onA.token, onA.projectId);
    const agentId = await onA.agent(
      "await page.goto('data:text/html,<title>run ' + input.n + '</title>'); return await page.title();",
    );
    const runs: RunJson[] = [];
    for (let n = 0; n < 10; n++) {
      const via = n % 2 ? onB : onA;
      const started = await via.call<RunJson>('POST', `${via.base}/agents/${agentId}/runs`, { input: { n } });
      expect(started.status).toBe(201);
      runs.push(started.body);
    }
    const ended = await Promise.all(runs.map((run, i) => (i % 2 ? onA : onB).terminal(run.id, 90_000)));
    expect(ended.map((run) => [run.status, run.result])).toEqual(
      runs.map((_, n) => ['SUCCEEDED', `run ${n}`]),
    );
    // Each executed once: one session opened for it, one "ready" line in its logs.
    for (const run of ended) {
      const { lines } = await onA.logs(run.id);
      const ready = lines.filter((l) => l.stream === 'system' && / ready$/.test(l.message));
      expect(
        ready.map((l) => l.message),
        run.id,
      ).toEqual([`session ${run.sessionId} ready`]);
    }
    expect(new Set(ended.map((run) => run.sessionId)).size).toBe(10);
    // A run is answered before its session is released: wait for the releases to be stored.
    const listSessions = () =>
      onB.call<{ sessions: { id: string; status: string }[]; total: number }>(
        'GET',
        `${onB.base}/sessions?limit=100`,
      );
    const sessions = await until('the runs’ sessions released', async () => {
      const page = await listSessions();
      return page.body.sessions.every((s) => s.status !== 'RUNNING') ? page : undefined;
    });
    expect(sessions.status).toBe(200);
    expect(sessions.body.total).toBe(10);
    expect(new Set(sessions.body.sessions.map((s) => s.id))).toEqual(
      new Set(ended.map((run) => run.sessionId)),
    );
    expect(new Set(sessions.body.sessions.map((s) => s.status))).toEqual(new Set(['COMPLETED']));
    // Both instances took part: a run's session is opened by the local provider of the instance
    // executing it, and their stored sessions name two instances.
    const orm = await MikroORM.init({
      clientUrl: db.url,
      entities: [],
      discovery: { warnWhenNoEntities: false },
      pool: { min: 0, max: 1 },
    });
    try {
      const rows = await orm.em
        .getConnection()
        .execute<{ provider_instance_id: string | null }[]>(
          'select provider_instance_id from browser_sessions where project_id = ?',
          [onA.projectId],
        );
      expect(rows).toHaveLength(10);
      expect(new Set(rows.map((row) => row.provider_instance_id)).size).toBe(2);
    } finally {
      await orm.close(true);
    }
  }, 120_000);
});

describe('an API-only instance and a worker (npm run worker) on one PostgreSQL database', () => {
  let db: TestDatabase;
  let dataDir: string;
  let api: ServerProcess;
  let worker: ServerProcess;
  /** The worker's processes (browsers, runners), so none outlives the test. */
  let workerTree = new Map<number, string>();

  beforeAll(async () => {
    db = await createTestDatabase();
    dataDir = mkdtempSync(join(tmpdir(), 'browserdeck-runs-worker-'));
    const env = { DATA_DIR: dataDir, DATABASE_URL: db.url };
    api = await startServerProcess({ ...env, RUN_WORKER: 'false' }, 60_000);
    worker = await startServerProcess(env, 60_000, { args: ['--worker'], detached: true });
  });

  afterAll(async () => {
    const pid = worker?.child.pid;
    if (pid && isRunning(pid)) process.kill(-pid, 'SIGKILL');
    for (const leftover of workerTree.keys()) if (isRunning(leftover)) process.kill(leftover, 'SIGKILL');
    const code = await api?.stop();
    await db?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    expect(code).toBe(0);
  });

  it('ends a run whose worker was killed FAILED worker_lost, its session stored ended, nothing left running', async () => {
    expect(api.output()).toContain('"runs":"api-only"');
    expect(worker.output()).toContain('Browserdeck is listening as a worker');
    const user = await signUpUser(api.url);
    const agentId = await user.agent("log('started');\nawait new Promise((r) => setTimeout(r, 600_000));");
    const run = (await user.start(agentId, { timeoutSec: 300 })).body;
    await until('the run to start on the worker', async () =>
      (await user.logs(run.id)).lines.some((l) => l.message === 'started') ? true : undefined,
    );
    const running = await user.run(run.id);
    expect(running).toMatchObject({ status: 'RUNNING', sessionId: expect.any(String) });
    const sessionPath = `${user.base}/sessions/${running.sessionId}`;
    expect((await user.call<{ status: string }>('GET', sessionPath)).body.status).toBe('RUNNING');

    const pid = worker.child.pid as number;
    workerTree = descendantsOf(pid);
    expect([...workerTree.values()].some((cmd) => cmd.includes('--user-data-dir='))).toBe(true);
    const killedAt = Date.now();
    process.kill(-pid, 'SIGKILL');
    expect(await worker.exited).toBeNull();

    const ended = await user.terminal(run.id, RUN_HEARTBEAT_LAPSE_MS + SWEEP_INTERVAL_MS + SLACK_MS);
    expect(ended).toMatchObject({ status: 'FAILED', error: { code: 'worker_lost' }, result: null });
    expect(Date.parse(ended.endedAt as string) - killedAt).toBeLessThanOrEqual(
      RUN_HEARTBEAT_LAPSE_MS + SWEEP_INTERVAL_MS + SLACK_MS,
    );
    const session = await user.call<{ status: string; endedAt: string | null }>('GET', sessionPath);
    expect(session.status).toBe(200);
    // Its browser went with its instance: stored ended as ERROR, no longer RUNNING.
    expect(session.body).toMatchObject({ status: 'ERROR', endedAt: expect.any(String) });
    // Its browser and the run's process went with the worker.
    await until(
      `the worker's processes to end: ${JSON.stringify([...workerTree].filter(([p]) => isRunning(p)))}`,
      () => ([...workerTree.keys()].some(isRunning) ? undefined : true),
      10_000,
    );
  }, 120_000);
});
