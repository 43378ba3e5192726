import { aRun, givenRunWorld, type InMemoryRunRepository } from '@browserdeck/testing';
import { describe, expect, it } from 'vitest';
import { asUser, type Caller } from '../access/Caller.ts';
import type { Run } from './Run.ts';
import type { RunStatus } from './runStatus.ts';

async function setUp() {
  const world = await givenRunWorld();
  const given = async (status: RunStatus): Promise<Run> => {
    const run = aRun({ projectId: world.project.id, ownerId: world.ownerId, status });
    await world.runRepository.add(run);
    return run;
  };
  const cancel = (runId: string, caller: Caller = world.owner) =>
    world.runs.cancel.execute({ caller, projectId: world.project.id, runId });
  return { ...world, given, cancel };
}

describe('CancelRun', () => {
  it.each<RunStatus>(['QUEUED', 'RUNNING'])(
    'cancels a %s run, interrupts its worker and wakes its readers',
    async (status) => {
      const { given, cancel, runRepository, runQueue, runChanges, clock } = await setUp();
      const run = await given(status);
      clock.advance(3_000);
      const canceled = await cancel(run.id);
      expect(canceled).toMatchObject({
        status: 'CANCELED',
        error: { code: 'canceled', message: 'The run was canceled.' },
        endedAt: clock.now(),
        workerId: null,
      });
      expect(await runRepository.findById(run.id)).toMatchObject({
        status: 'CANCELED',
        endedAt: clock.now(),
      });
      expect(runQueue.interrupted).toEqual([run.id]);
      expect(runChanges.notified).toEqual([run.id]);
    },
  );

  it('is idempotent: an ended run is answered as it is, nothing interrupted', async () => {
    const { given, cancel, runQueue, runRepository } = await setUp();
    const done = await given('SUCCEEDED');
    expect(await cancel(done.id)).toMatchObject({ status: 'SUCCEEDED' });
    const queued = await given('QUEUED');
    const first = await cancel(queued.id);
    const again = await cancel(queued.id);
    expect(again.endedAt).toEqual(first.endedAt);
    expect(runQueue.interrupted).toEqual([queued.id]);
    expect((await runRepository.findById(done.id))!.status).toBe('SUCCEEDED');
  });

  it('re-reads and tries again when it loses a race, keeping an end stored meanwhile', async () => {
    const { given, cancel, runRepository } = await setUp();
    const run = await given('RUNNING');
    raceFirstUpdate(runRepository, run.id, (worker) =>
      worker.end({ status: 'SUCCEEDED', result: 7, exitCode: 0 }, new Date()),
    );
    expect(await cancel(run.id)).toMatchObject({ status: 'SUCCEEDED', result: 7 });
    expect((await runRepository.findById(run.id))!.status).toBe('SUCCEEDED');
  });

  it('cancels a run the race put back in the queue', async () => {
    const { given, cancel, runRepository } = await setUp();
    const run = await given('RUNNING');
    raceFirstUpdate(runRepository, run.id, (worker) => worker.requeue());
    expect((await cancel(run.id)).status).toBe('CANCELED');
    expect((await runRepository.findById(run.id))!.status).toBe('CANCELED');
  });

  it('answers not_found for another user, and acts for the project’s API key', async () => {
    const { given, cancel, project, runRepository } = await setUp();
    const run = await given('QUEUED');
    await expect(cancel(run.id, asUser('owner-2'))).rejects.toMatchObject({ code: 'not_found' });
    expect((await runRepository.findById(run.id))!.status).toBe('QUEUED');
    const key: Caller = {
      kind: 'apiKey',
      keyId: 'k',
      projectId: project.id,
      keyName: 'CI',
      role: 'developer',
    };
    expect((await cancel(run.id, key)).status).toBe('CANCELED');
  });
});

/**
 * Makes the first `update` of `runRepository` lose a race: just before it, the worker changes the
 * stored RUNNING run (`change`) and stores that by compare-and-set.
 */
function raceFirstUpdate(
  runRepository: InMemoryRunRepository,
  runId: string,
  change: (worker: Run) => void,
): void {
  const update = runRepository.update.bind(runRepository);
  let raced = false;
  runRepository.update = async (changed, expected) => {
    if (!raced) {
      raced = true;
      const worker = (await runRepository.findById(runId))!;
      change(worker);
      await update(worker, 'RUNNING');
    }
    return update(changed, expected);
  };
}
