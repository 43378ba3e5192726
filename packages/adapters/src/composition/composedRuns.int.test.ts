import { asUser, type Caller, type Run, SystemClock } from '@browserdeck/domain';
import {
  FakeBrowserProvider,
  FakeScriptRunner,
  InMemoryIdentityProvider,
  ManualClock,
  ManualTimers,
  SequentialIdGenerator,
} from '@browserdeck/testing';
import { inMemoryStorage } from '@browserdeck/testing/adapters';
import { eventually } from '@browserdeck/testing/local-chromium';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../../test/postgres.ts';
import { UuidV7Generator } from '../shared/UuidV7Generator.ts';
import type { Browserdeck } from './Browserdeck.ts';
import type { RunsOptions } from './BrowserdeckOptions.ts';
import { createBrowserdeck } from './createBrowserdeck.ts';

const logger = pino({ level: 'silent' });
const SECRET = 'a passphrase for these tests only';
const composed: Browserdeck[] = [];
afterEach(async () => {
  for (const browserdeck of composed.splice(0).reverse()) await browserdeck.close();
});

/** A user of `browserdeck` with a project and an agent whose script the fake runner "runs". */
async function givenAgent(browserdeck: Browserdeck, email: string) {
  const { user } = await browserdeck.useCases.auth.signUp.execute({ email, password: 'correct horse' });
  const caller: Caller = asUser(user.id);
  const project = await browserdeck.useCases.projects.create.execute({ caller, name: 'Runs' });
  const agent = await browserdeck.useCases.agents.create.execute({
    caller,
    projectId: project.id,
    agent: { name: 'title', script: 'return await page.title();' },
  });
  return { caller, projectId: project.id, agentId: agent.id };
}

/**
 * One instance over in-memory storage with a fake provider and `scriptRunner` (and `runs`
 * options); closed after the test. Its storage and clock too.
 */
async function composeSolo(scriptRunner: FakeScriptRunner, clock: ManualClock, runs: RunsOptions = {}) {
  const ids = new SequentialIdGenerator();
  const storage = inMemoryStorage(clock);
  const browserdeck = await createBrowserdeck({
    database: { storage },
    identity: { provider: new InMemoryIdentityProvider({ ids, clock }) },
    browsers: { provider: new FakeBrowserProvider({ clock, instanceId: 'solo' }) },
    secretKey: SECRET,
    logger,
    clock,
    ids,
    reconcileIntervalSec: 86_400,
    runs,
    overrides: { scriptRunner, timers: new ManualTimers() },
  });
  composed.push(browserdeck);
  return { browserdeck, storage };
}

describe('runs in the composition (in-memory storage, in-process queue)', () => {
  it('are executed by the started worker, and counted in the metrics', async () => {
    const clock = new ManualClock();
    const scriptRunner = new FakeScriptRunner({ clock });
    scriptRunner.defaultPlay = {
      output: ['hello'],
      outcome: { kind: 'returned', resultJson: '42', exitCode: 0 },
    };
    const { browserdeck } = await composeSolo(scriptRunner, clock);
    const { caller, projectId, agentId } = await givenAgent(browserdeck, 'ada@example.com');
    const runs = browserdeck.useCases.runs;
    const { run } = await runs.startAgentRun.execute({
      caller,
      projectId,
      agentId,
      request: { input: { n: 1 } },
    });
    expect(run.status).toBe('QUEUED');
    browserdeck.start();
    const ended = await runs.get.execute({ caller, projectId, runId: run.id, waitSec: 30 });
    expect(ended).toMatchObject({ status: 'SUCCEEDED', result: 42 });
    expect(scriptRunner.jobs.map((job) => [job.runId, job.input])).toEqual([[run.id, { n: 1 }]]);
    const { logs } = await runs.logs.execute({ caller, projectId, runId: run.id });
    expect(logs.map((line) => line.message)).toContain('hello');
    // The worker counts a run's duration once its session is released, after the run's answer.
    await eventually(async () =>
      /browserdeck_run_duration_seconds_count\{status="SUCCEEDED"\} 1\n/.test(
        await browserdeck.metrics.render(),
      ),
    );
    const text = await browserdeck.metrics.render();
    expect(text).toContain('browserdeck_runs{status="SUCCEEDED"} 1\n');
    expect(text).toContain('browserdeck_runs{status="QUEUED"} 0\n');
    expect(text).toContain('browserdeck_run_queue_depth 0\n');
    expect(text).toMatch(/browserdeck_run_duration_seconds_count\{status="SUCCEEDED"\} 1\n/);
  });

  it('cancels a run still running when it closes, after the shutdown grace', async () => {
    const clock = new ManualClock();
    const scriptRunner = new FakeScriptRunner({ clock });
    scriptRunner.defaultPlay = { hold: true };
    const { browserdeck, storage } = await composeSolo(scriptRunner, clock, { shutdownGraceSec: 0.05 });
    const { caller, projectId, agentId } = await givenAgent(browserdeck, 'grace@example.com');
    const { run } = await browserdeck.useCases.runs.startAgentRun.execute({
      caller,
      projectId,
      agentId,
      request: {},
    });
    browserdeck.start();
    await scriptRunner.untilHeld();
    await browserdeck.close();
    const ended = (await storage.runs.findById(run.id)) as Run;
    expect(ended.status).toBe('CANCELED');
    const session = await storage.sessions.findInProject(projectId, ended.sessionId as string);
    expect(session?.endedAt).not.toBeNull();
  });
});

describe('runs past their retention', () => {
  it('are deleted with their logs after runs.retentionDays, by the use case the started sweep runs', async () => {
    const clock = new ManualClock();
    const scriptRunner = new FakeScriptRunner({ clock });
    scriptRunner.defaultPlay = {
      output: ['kept a week'],
      outcome: { kind: 'returned', resultJson: '1', exitCode: 0 },
    };
    const { browserdeck, storage } = await composeSolo(scriptRunner, clock, { retentionDays: 7 });
    const runs = browserdeck.useCases.runs;
    expect(runs.prune.retentionDays).toBe(7);
    const { caller, projectId, agentId } = await givenAgent(browserdeck, 'old@example.com');
    const { run } = await runs.startAgentRun.execute({ caller, projectId, agentId, request: {} });
    browserdeck.start();
    expect(await runs.get.execute({ caller, projectId, runId: run.id, waitSec: 30 })).toMatchObject({
      status: 'SUCCEEDED',
    });
    clock.advance(7 * 86_400_000 - 1);
    expect(await runs.prune.execute()).toEqual({ runs: 0, logLines: 0 });
    clock.advance(2);
    const { logLines, runs: deleted } = await runs.prune.execute();
    expect(deleted).toBe(1);
    expect(logLines).toBeGreaterThan(0);
    expect(await storage.runs.findById(run.id)).toBeNull();
  });
});

describe('runs shared by two instances on one PostgreSQL (pg-boss)', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.drop();
  });

  const clock = new SystemClock();
  /** An instance on the test database, its fake browsers named `name`, running scripts with `runner`. */
  const instance = async (name: string, runner: FakeScriptRunner) => {
    const browserdeck = await createBrowserdeck({
      database: { url: database.url },
      identity: { provider: new InMemoryIdentityProvider({ ids: new UuidV7Generator(), clock }) },
      browsers: { provider: new FakeBrowserProvider({ clock, instanceId: name }) },
      secretKey: SECRET,
      logger,
      // One account may take every slot of both: the fair share per account is left out of this test.
      runs: { concurrency: 2, maxActivePerOwner: 4 },
      overrides: { scriptRunner: runner },
    });
    composed.push(browserdeck);
    return browserdeck;
  };

  it('execute 10 runs exactly once each, both at once, at most `concurrency` each', async () => {
    const [runnerA, runnerB] = [new FakeScriptRunner(), new FakeScriptRunner()];
    for (const runner of [runnerA, runnerB]) runner.defaultPlay = { hold: true };
    const a = await instance('instance-a', runnerA);
    const b = await instance('instance-b', runnerB);
    const { caller, projectId, agentId } = await givenAgent(a, 'shared@example.com');
    const started: Run[] = [];
    for (let i = 0; i < 10; i++) {
      const via = i % 2 ? a : b;
      started.push(
        (await via.useCases.runs.startAgentRun.execute({ caller, projectId, agentId, request: {} })).run,
      );
    }
    const waiting = started.map((run, i) =>
      (i % 3 ? a : b).useCases.runs.get.execute({ caller, projectId, runId: run.id, waitSec: 60 }),
    );
    a.start();
    b.start();
    // Two a side at most: four held at once means both instances took runs.
    for (let finished = 0; finished < 10; ) {
      const expected = Math.min(4, 10 - finished);
      await until(() => runnerA.holding.length + runnerB.holding.length === expected);
      expect(runnerA.holding.length).toBeLessThanOrEqual(2);
      expect(runnerB.holding.length).toBeLessThanOrEqual(2);
      for (const runner of [runnerA, runnerB]) {
        for (const job of runner.holding) {
          runner.finish({ kind: 'returned', resultJson: '"done"', exitCode: 0 }, job.runId);
          finished++;
        }
      }
    }
    const ended = await Promise.all(waiting);
    expect(ended.map((run) => [run.status, run.result])).toEqual(Array(10).fill(['SUCCEEDED', 'done']));
    expect(runnerA.jobs.length).toBeGreaterThan(0);
    expect(runnerB.jobs.length).toBeGreaterThan(0);
    const executed = [...runnerA.jobs, ...runnerB.jobs].map((job) => job.runId).sort();
    expect(executed).toEqual(started.map((run) => run.id).sort());
    const listed = await b.useCases.runs.list.execute({ caller, projectId, query: { status: 'SUCCEEDED' } });
    expect(listed.total).toBe(10);
  });
});

/** Resolves once `condition` holds, looking again every 20 ms. */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 20));
}
