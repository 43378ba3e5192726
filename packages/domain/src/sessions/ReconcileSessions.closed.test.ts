import { givenSessionWorld } from '@browserdeck/testing';
import { describe, expect, it } from 'vitest';
import { ReconcileSessions } from './ReconcileSessions.ts';

/** SPEC §17: a disabled account's sessions end on the instance holding them, whichever disabled it. */
async function setUp() {
  const world = await givenSessionWorld();
  const { sessions, projects, provider, clock, project } = world;
  const first = await world.startSession();
  const second = await world.startSession();
  provider.calls.length = 0;
  const reconcile = new ReconcileSessions({ sessions, projects, provider, clock });
  const run = () => reconcile.execute({ batchSize: 10, concurrency: 2, leaseSec: 30 });
  const status = async (id: string) => (await sessions.findInProject(project.id, id))?.status;
  const releases = () => provider.calls.filter((call) => call.op === 'release');
  return { ...world, first, second, run, status, releases };
}

describe('ReconcileSessions and closed projects', () => {
  it('releases and ends the sessions of a project whose owner an operator disabled', async () => {
    const { users, ownerId, clock, first, second, run, status, releases, provider } = await setUp();
    clock.advance(60_000);
    await users.setDisabled(ownerId, clock.now());

    expect(await run()).toEqual({ claimed: 2, synced: 2, failed: 0, endedAsError: 0 });
    expect(
      releases()
        .map((call) => (call.op === 'release' ? call.providerSessionId : ''))
        .sort(),
    ).toEqual([first.providerSessionId, second.providerSessionId].sort());
    expect(await status(first.id)).toBe('COMPLETED');
    expect(await status(second.id)).toBe('COMPLETED');
    expect(provider.running).toEqual([]);
  });

  it('leaves an open project’s sessions running, and does not ask when it holds no project port', async () => {
    const { sessions, provider, clock, first, run, status, releases } = await setUp();
    clock.advance(60_000);
    expect(await run()).toMatchObject({ claimed: 2, synced: 2 });
    expect(releases()).toEqual([]);
    expect(await status(first.id)).toBe('RUNNING');

    // Without `projects` the reconciler only refreshes, as before.
    clock.advance(60_000);
    const plain = new ReconcileSessions({ sessions, provider, clock });
    expect(await plain.execute({ batchSize: 10, concurrency: 2, leaseSec: 30 })).toMatchObject({
      claimed: 2,
    });
    expect(releases()).toEqual([]);
  });

  it('stores the sessions ended even when the provider’s release fails (logged)', async () => {
    const { users, ownerId, clock, first, second, run, status, provider } = await setUp();
    clock.advance(60_000);
    await users.setDisabled(ownerId, clock.now());
    provider.failNext('release');
    const report = await run();
    expect(report.claimed).toBe(2);
    // A failed release is logged and the session is stored ended all the same: the project is closed.
    expect([await status(first.id), await status(second.id)]).toEqual(['COMPLETED', 'COMPLETED']);
  });
});
