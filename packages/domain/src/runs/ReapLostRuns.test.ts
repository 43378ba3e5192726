import { aRun, FakeBrowserProvider, givenRunWorld } from '@browserdeck/testing';
import { describe, expect, it } from 'vitest';
import { ReleaseSession } from '../sessions/ReleaseSession.ts';
import { ReapLostRuns } from './ReapLostRuns.ts';
import { RUN_HEARTBEAT_LAPSE_MS } from './runRules.ts';

async function setUp(options: { instanceId?: string } = {}) {
  const world = await givenRunWorld(options);
  /** A RUNNING run of worker `workerId`; with `owned`, an agent run holding a session it created. */
  const givenRunning = async (props: { workerId?: string; owned?: boolean } = {}) => {
    const session = await world.startSession({});
    const run = aRun({
      projectId: world.project.id,
      ownerId: world.ownerId,
      status: 'RUNNING',
      workerId: props.workerId ?? 'instance-a/0',
      sessionId: session.id,
      sessionRequest: props.owned === false ? null : { region: 'us-west-2' },
      now: world.clock.now(),
    });
    await world.runRepository.add(run);
    return { run, session };
  };
  const stored = async (runId: string) => (await world.runRepository.findById(runId))!;
  return { ...world, givenRunning, stored };
}

describe('ReapLostRuns', () => {
  it('ends a run whose heartbeat lapsed FAILED worker_lost and releases the session it created', async () => {
    const { givenRunning, runs, clock, stored, sessions, provider, runChanges } = await setUp();
    const { run, session } = await givenRunning();
    clock.advance(RUN_HEARTBEAT_LAPSE_MS + 1);
    expect(await runs.reapLost.execute()).toBe(1);
    expect(await stored(run.id)).toMatchObject({
      status: 'FAILED',
      error: { code: 'worker_lost', message: 'The worker executing the run stopped answering.' },
      workerId: null,
      endedAt: clock.now(),
    });
    expect(runChanges.notified).toEqual([run.id]);
    expect((await sessions.findInProject(session.projectId, session.id))!.status).toBe('COMPLETED');
    expect(provider.running).toEqual([]);
    expect(await runs.reapLost.execute()).toBe(0);
  });

  it('leaves runs whose heartbeat is recent, and queued ones', async () => {
    const { givenRunning, runs, clock, stored, runRepository, project, ownerId } = await setUp();
    const { run } = await givenRunning();
    const queued = aRun({ projectId: project.id, ownerId, now: clock.now() });
    await runRepository.add(queued);
    clock.advance(RUN_HEARTBEAT_LAPSE_MS);
    expect(await runs.reapLost.execute()).toBe(0);
    expect((await stored(run.id)).status).toBe('RUNNING');
    expect((await stored(queued.id)).status).toBe('QUEUED');
  });

  it('does not release the live session of an ad-hoc run', async () => {
    const { givenRunning, runs, clock, stored, provider } = await setUp();
    const releases = () => provider.calls.filter((c) => c.op === 'release');
    const { run, session } = await givenRunning({ owned: false });
    clock.advance(RUN_HEARTBEAT_LAPSE_MS + 1);
    expect(await runs.reapLost.execute()).toBe(1);
    expect((await stored(run.id)).status).toBe('FAILED');
    expect(releases()).toEqual([]);
    expect(provider.running).toEqual([session.providerSessionId]);
  });

  it('stores the session ended ERROR when only the lost worker’s instance held its browser', async () => {
    const world = await setUp({ instanceId: 'instance-a' });
    const { givenRunning, clock, sessions, runRepository, runChanges, projects, stored } = world;
    const lost = await givenRunning({ workerId: 'instance-a/1' });
    const elsewhere = await givenRunning({ workerId: 'instance-c/0' });
    const other = new FakeBrowserProvider({ clock, instanceId: 'instance-b' });
    const reaper = new ReapLostRuns({
      runs: runRepository,
      runChanges,
      sessions,
      releaseSession: new ReleaseSession({ projects, sessions, provider: other, clock }),
      clock,
    });
    clock.advance(RUN_HEARTBEAT_LAPSE_MS + 1);
    expect(await reaper.execute()).toBe(2);
    expect((await stored(lost.run.id)).error?.code).toBe('worker_lost');
    expect(await sessions.findInProject(lost.session.projectId, lost.session.id)).toMatchObject({
      status: 'ERROR',
      endedAt: clock.now(),
    });
    // Held by an instance that is not the lost worker's: it may be alive, so it is left as stored.
    expect((await sessions.findInProject(elsewhere.session.projectId, elsewhere.session.id))!.status).toBe(
      'RUNNING',
    );
    expect(other.calls).toEqual([]);
  });

  it('keeps a run that ended meanwhile as it is', async () => {
    const { givenRunning, runs, clock, stored, runRepository } = await setUp();
    const { run } = await givenRunning();
    clock.advance(RUN_HEARTBEAT_LAPSE_MS + 1);
    const listLapsed = runRepository.listLapsed.bind(runRepository);
    runRepository.listLapsed = async (before, limit) => {
      const lapsed = await listLapsed(before, limit);
      const worker = (await runRepository.findById(run.id))!;
      worker.end({ status: 'SUCCEEDED', result: 'made it', exitCode: 0 }, clock.now());
      await runRepository.update(worker, 'RUNNING');
      return lapsed;
    };
    expect(await runs.reapLost.execute()).toBe(0);
    expect(await stored(run.id)).toMatchObject({ status: 'SUCCEEDED', result: 'made it' });
  });
});
