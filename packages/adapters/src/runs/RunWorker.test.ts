import { CreateSession, ExecuteRun, ReapLostRuns, ReleaseSession, type Run } from '@browserdeck/domain';
import { aRun, FakeScriptRunner, givenSessionWorld, ManualTimers } from '@browserdeck/testing';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { InProcessRunQueue } from './queue/InProcessRunQueue.ts';
import { RunWorker } from './RunWorker.ts';

const logger = pino({ level: 'silent' });
const INSTANCE = 'instance-a';

/** A worker over the in-memory world, the real `ExecuteRun` and `ReapLostRuns`, and the in-process queue. */
async function givenWorker(options: { takesRuns?: boolean; concurrency?: number; graceSec?: number } = {}) {
  const world = await givenSessionWorld({ instanceId: INSTANCE });
  const { projects, sessions, agents, provider, idempotency, ids, clock, runs, runLogs, runChanges, audit } =
    world;
  const queue = new InProcessRunQueue({ runs, logger });
  const scriptRunner = new FakeScriptRunner({ clock });
  const timers = new ManualTimers();
  const createSession = new CreateSession({
    projects,
    agents,
    sessions,
    provider,
    idempotency,
    ids,
    clock,
    audit,
  });
  const releaseSession = new ReleaseSession({ projects, sessions, provider, clock });
  const execute = new ExecuteRun({
    ...{ runs, runLogs, runQueue: queue, runChanges, scriptRunner, timers, clock },
    ...{ sessions, provider, createSession, releaseSession },
  });
  const done: Array<{ runId: string; workerId: string }> = [];
  const doneWatchers: Array<() => void> = [];
  const worker = new RunWorker({
    queue,
    execute,
    reapLost: new ReapLostRuns({ runs, runChanges, sessions, releaseSession, clock }),
    timers,
    logger,
    instanceId: INSTANCE,
    takesRuns: options.takesRuns ?? true,
    concurrency: options.concurrency ?? 2,
    shutdownGraceSec: options.graceSec ?? 0,
    onRunDone: (runId, workerId) => {
      done.push({ runId, workerId });
      for (const watch of doneWatchers.splice(0)) watch();
    },
  });
  workers.push(worker);
  /** A QUEUED ad-hoc run on a live session of the world's project, stored and queued. */
  const queueRun = async (): Promise<Run> => {
    const session = await world.startSession();
    const run = aRun({ projectId: world.project.id, ownerId: world.ownerId, sessionId: session.id });
    await runs.add(run);
    await queue.enqueue({ runId: run.id, ownerId: run.ownerId });
    return run;
  };
  /** Resolves once `count` executions are over. */
  const untilDone = (count: number) =>
    new Promise<void>((resolve) => {
      const check = () => (done.length >= count ? resolve() : doneWatchers.push(check));
      check();
    });
  const stored = async (runId: string) => (await runs.findById(runId)) as Run;
  /** Resolves once the script runner holds exactly the runs `runIds`. */
  const untilHolding = async (...runIds: string[]) => {
    const holding = () => scriptRunner.holding.map((job) => job.runId).sort();
    while (JSON.stringify(holding()) !== JSON.stringify([...runIds].sort())) {
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  return { world, queue, scriptRunner, timers, worker, done, queueRun, untilDone, untilHolding, stored };
}

const workers: RunWorker[] = [];
afterEach(async () => {
  for (const worker of workers.splice(0)) await worker.close();
});

describe('RunWorker', () => {
  it('executes queued runs as `<instance>/<slot>`, at most `concurrency` at once, reusing freed slots', async () => {
    const { scriptRunner, worker, queueRun, untilDone, untilHolding, stored, done } = await givenWorker({
      concurrency: 2,
    });
    scriptRunner.defaultPlay = { hold: true };
    const [first, second, third] = [await queueRun(), await queueRun(), await queueRun()];
    worker.start();
    await untilHolding(first.id, second.id);
    expect((await stored(first.id)).workerId).toBe(`${INSTANCE}/0`);
    expect((await stored(second.id)).workerId).toBe(`${INSTANCE}/1`);
    expect((await stored(third.id)).status).toBe('QUEUED');
    scriptRunner.finish(undefined, first.id);
    await untilDone(1);
    await untilHolding(second.id, third.id);
    expect((await stored(third.id)).workerId).toBe(`${INSTANCE}/0`);
    expect((await stored(first.id)).status).toBe('SUCCEEDED');
    expect(done[0]).toEqual({ runId: first.id, workerId: `${INSTANCE}/0` });
    expect(worker.active).toBe(2);
  });

  it('stops a run at once when the queue interrupts it on this instance: CANCELED', async () => {
    const { queue, scriptRunner, worker, queueRun, untilDone, stored } = await givenWorker();
    scriptRunner.defaultPlay = { hold: true };
    const run = await queueRun();
    worker.start();
    await scriptRunner.untilHeld();
    queue.interrupt(run.id);
    await untilDone(1);
    expect((await stored(run.id)).status).toBe('CANCELED');
    expect(scriptRunner.holding).toEqual([]);
  });

  it('lets a running run finish within the shutdown grace', async () => {
    const { scriptRunner, worker, queueRun, stored } = await givenWorker({ graceSec: 60 });
    scriptRunner.defaultPlay = { hold: true };
    const run = await queueRun();
    worker.start();
    await scriptRunner.untilHeld();
    const closed = worker.close();
    scriptRunner.finish({ kind: 'returned', resultJson: '"done"', exitCode: 0 });
    await closed;
    const ended = await stored(run.id);
    expect(ended.status).toBe('SUCCEEDED');
    expect(ended.result).toBe('done');
  });

  it('cancels the runs still running when the grace is over, releasing the sessions they created', async () => {
    const { world, queue, scriptRunner, worker, stored } = await givenWorker({ graceSec: 0.05 });
    scriptRunner.defaultPlay = { hold: true };
    const agentRun = aRun({
      projectId: world.project.id,
      ownerId: world.ownerId,
      sessionId: null,
      sessionRequest: { timeoutSec: 120 },
    });
    await world.runs.add(agentRun);
    await queue.enqueue({ runId: agentRun.id, ownerId: agentRun.ownerId });
    worker.start();
    await scriptRunner.untilHeld();
    const sessionId = (await stored(agentRun.id)).sessionId as string;
    await worker.close();
    const ended = await stored(agentRun.id);
    expect(ended.status).toBe('CANCELED');
    expect(scriptRunner.holding).toEqual([]);
    const session = await world.sessions.findInProject(world.project.id, sessionId);
    expect(session?.status).not.toBe('RUNNING');
    expect(session?.endedAt).not.toBeNull();
  });

  it('sweeps for lost runs at start and on its timer, and takes no runs when told not to', async () => {
    const { world, scriptRunner, timers, worker, queueRun, stored } = await givenWorker({ takesRuns: false });
    const longAgo = new Date(world.clock.now().getTime() - 60_000);
    const lost = aRun({ projectId: world.project.id, status: 'RUNNING', workerId: 'gone/0', now: longAgo });
    await world.runs.add(lost);
    const queued = await queueRun();
    worker.start();
    await worker.sweep();
    expect((await stored(lost.id)).error?.code).toBe('worker_lost');
    const later = aRun({ projectId: world.project.id, status: 'RUNNING', workerId: 'gone/1', now: longAgo });
    await world.runs.add(later);
    expect(timers.active).toBe(1);
    timers.tick();
    await worker.close();
    expect(timers.active).toBe(0);
    expect((await stored(later.id)).error?.code).toBe('worker_lost');
    expect((await stored(queued.id)).status).toBe('QUEUED');
    expect(scriptRunner.jobs).toEqual([]);
  });
});
