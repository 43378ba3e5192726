import { givenRunWorld, RunEndingDuringRead } from '@browserdeck/testing';
import { describe, expect, it } from 'vitest';
import { asUser, type Caller } from '../access/Caller.ts';
import { GetRun } from './GetRun.ts';
import { RunWaiters } from './RunWaiters.ts';
import { StopSource } from './StopSource.ts';

async function setUp() {
  const world = await givenRunWorld();
  const agent = await world.givenAgent();
  const run = await world.startAgentRun(agent);
  const get = (options: { waitSec?: number; caller?: Caller; signal?: StopSource; runId?: string } = {}) =>
    world.runs.get.execute({
      caller: options.caller ?? world.owner,
      projectId: world.project.id,
      runId: options.runId ?? run.id,
      waitSec: options.waitSec,
      signal: options.signal,
    });
  return { ...world, agent, run, get };
}

describe('GetRun', () => {
  it('answers the run at once without wait, also for an API key of its project', async () => {
    const { get, run, project, clock } = await setUp();
    expect(await get()).toMatchObject({ id: run.id, status: 'QUEUED', createdAt: clock.now() });
    const key: Caller = {
      kind: 'apiKey',
      keyId: 'k',
      projectId: project.id,
      keyName: 'CI',
      role: 'developer',
    };
    expect((await get({ caller: key })).id).toBe(run.id);
  });

  it('answers not_found for another user, another project and an unknown id', async () => {
    const { get, run, startAgentRun, givenAgent, addProject } = await setUp();
    await expect(get({ caller: asUser('owner-2') })).rejects.toMatchObject({ code: 'not_found' });
    const other = await addProject('Other', 'other');
    const elsewhere = await startAgentRun(await givenAgent({}, other.id));
    await expect(get({ runId: elsewhere.id })).rejects.toMatchObject({
      code: 'not_found',
      message: 'Run was not found.',
    });
    await expect(get({ runId: `${run.id.slice(0, -4)}dead` })).rejects.toMatchObject({ code: 'not_found' });
  });

  it('refuses a wait outside 0..60 s, naming wait', async () => {
    const { get } = await setUp();
    for (const waitSec of [-1, 61, Number.NaN]) {
      await expect(get({ waitSec })).rejects.toMatchObject({
        code: 'validation_failed',
        errors: [{ path: 'wait', message: expect.any(String) }],
      });
    }
  });

  it('holds the answer until the run has ended, woken by its changes', async () => {
    const { get, run, runs, runChanges, scriptRunner } = await setUp();
    scriptRunner.willPlay({ hold: true });
    const answer = get({ waitSec: 30 });
    await runChanges.untilWaiting(run.id);
    const executing = runs.execute.execute({ runId: run.id, workerId: 'i/0', signal: new StopSource() });
    await scriptRunner.untilHeld();
    scriptRunner.finish({ kind: 'returned', resultJson: '"done"', exitCode: 0 });
    await executing;
    expect(await answer).toMatchObject({ id: run.id, status: 'SUCCEEDED', result: 'done' });
  });

  it('answers at once a run that ends during the read before its wait (the waiter is in place first)', async () => {
    const { run, runRepository, runChanges, clock, projects, owner, project } = await setUp();
    const racing = new RunEndingDuringRead(runRepository, runChanges, clock);
    const get = new GetRun({ projects, runs: racing, runChanges, clock, waiters: new RunWaiters() });
    racing.endOnNextRead();
    // Waiting first and reading after would miss the notification and hold for the whole 60 s.
    const answer = await get.execute({ caller: owner, projectId: project.id, runId: run.id, waitSec: 60 });
    expect(racing.endings).toBe(1);
    expect(answer).toMatchObject({ id: run.id, status: 'CANCELED' });
    expect(runChanges.timedOut).toEqual([]);
  });

  it('answers the run as it is once the wait is over', async () => {
    const { get, run, runChanges, clock } = await setUp();
    const waits: number[] = [];
    runChanges.onWait = (runId, maxWaitMs) => {
      waits.push(maxWaitMs);
      // Time passes without a change: the reader wakes at its timeout.
      clock.advance(maxWaitMs);
      runChanges.notify(runId);
    };
    expect(await get({ waitSec: 2 })).toMatchObject({ id: run.id, status: 'QUEUED' });
    expect(waits).toEqual([2000]);
  });

  it('stops waiting when its signal aborts', async () => {
    const { get, run, runChanges } = await setUp();
    const signal = new StopSource();
    const answer = get({ waitSec: 60, signal });
    await runChanges.untilWaiting(run.id);
    signal.abort();
    expect((await answer).status).toBe('QUEUED');
  });
});
