import {
  FakeBrowserProvider,
  givenSessionWorld,
  givenTwoInstances,
  InMemorySessionRepository,
  ManualClock,
} from '@browserdeck/testing';
import { describe, expect, it, vi } from 'vitest';
import { asUser } from '../access/Caller.ts';
import type { Logger } from '../shared/Logger.ts';
import type { BrowserSession } from './BrowserSession.ts';
import { CreateSession } from './CreateSession.ts';
import { ReconcileSessions } from './ReconcileSessions.ts';
import { ReleaseSession } from './ReleaseSession.ts';

const OWNER = 'owner-1';

async function setUp() {
  const { clock, projects, sessions, provider, project, startSession } = await givenSessionWorld();
  // Five active sessions created (and so last synced) a second apart, oldest first, and one released.
  const active: BrowserSession[] = [];
  for (let i = 0; i < 5; i++) {
    active.push(await startSession());
    clock.advance(1_000);
  }
  const ended = await startSession();
  await new ReleaseSession({ projects, sessions, provider, clock }).execute({
    caller: asUser(OWNER),
    projectId: project.id,
    sessionId: ended.id,
  });
  provider.calls.length = 0;
  const warnings: Array<Record<string, unknown>> = [];
  const logger: Logger = { warn: (details) => warnings.push(details), error: () => {} };
  const reconcile = new ReconcileSessions({ sessions, provider, clock, logger });
  const run = (batchSize = 2) => reconcile.execute({ batchSize, concurrency: 2, leaseSec: 30 });
  const stored = async (s: BrowserSession) => (await sessions.findInProject(project.id, s.id))!;
  const gets = () =>
    provider.calls.filter((c) => c.op === 'get').map((c) => (c.op === 'get' ? c.providerSessionId : ''));
  return { clock, provider, sessions, active, ended, run, stored, gets, warnings };
}

describe('ReconcileSessions', () => {
  it('syncs the least recently synced active sessions, a batch per pass', async () => {
    const { clock, provider, active, run, stored, gets } = await setUp();
    clock.advance(60_000);
    provider.setStatus(active[0]!.providerSessionId, 'TIMED_OUT');
    provider.forget(active[1]!.providerSessionId);

    expect(await run()).toEqual({ claimed: 2, synced: 2, failed: 0, endedAsError: 0 });
    expect(gets().sort()).toEqual([active[0]!.providerSessionId, active[1]!.providerSessionId].sort());
    expect((await stored(active[0]!)).status).toBe('TIMED_OUT');
    expect((await stored(active[1]!)).status).toBe('COMPLETED');
    expect((await stored(active[1]!)).endedAt?.toISOString()).toBe(clock.now().toISOString());

    expect(await run()).toEqual({ claimed: 2, synced: 2, failed: 0, endedAsError: 0 });
    expect(gets().slice(2).sort()).toEqual(
      [active[2]!.providerSessionId, active[3]!.providerSessionId].sort(),
    );
    // The ended two are out of the rotation; the last one comes next, then the longest unsynced again.
    expect(await run()).toEqual({ claimed: 2, synced: 2, failed: 0, endedAsError: 0 });
    expect(gets()[4]).toBe(active[4]!.providerSessionId);
    expect([active[2]!.providerSessionId, active[3]!.providerSessionId]).toContain(gets()[5]);
    for (const s of active.slice(2)) {
      expect((await stored(s)).lastSyncedAt.toISOString()).toBe(clock.now().toISOString());
      expect((await stored(s)).status).toBe('RUNNING');
    }
  });

  it('leaves terminal sessions alone', async () => {
    const { clock, ended, run, stored, gets, provider } = await setUp();
    const before = await stored(ended);
    provider.setStatus(ended.providerSessionId, 'RUNNING');
    clock.advance(60_000);
    const report = await run(100);
    expect(report.claimed).toBe(5);
    expect(gets()).not.toContain(ended.providerSessionId);
    const after = await stored(ended);
    expect(after.status).toBe('COMPLETED');
    expect(after.lastSyncedAt.toISOString()).toBe(before.lastSyncedAt.toISOString());
  });

  it('counts sessions the provider could not report on as failed, and keeps their state', async () => {
    const { clock, provider, active, run, stored } = await setUp();
    clock.advance(60_000);
    provider.failNext('get', 'provider_unavailable');
    const report = await run(5);
    expect(report).toEqual({ claimed: 5, synced: 4, failed: 1, endedAsError: 0 });
    const states = await Promise.all(active.map(stored));
    expect(states.filter((s) => s.lastSyncedAt.getTime() === clock.now().getTime())).toHaveLength(4);
    expect(states.every((s) => s.status === 'RUNNING')).toBe(true);
  });

  it('counts and logs an unexpected error and goes on with the batch', async () => {
    const { clock, provider, active, run, warnings } = await setUp();
    clock.advance(60_000);
    const get = provider.get.bind(provider);
    vi.spyOn(provider, 'get').mockImplementation(async (id) => {
      if (id === active[0]!.providerSessionId) throw new Error('boom');
      return get(id);
    });
    expect(await run(5)).toEqual({ claimed: 5, synced: 4, failed: 1, endedAsError: 0 });
    expect(warnings).toEqual([{ sessionId: active[0]!.id, error: 'Error: boom' }]);
  });

  it('does not claim sessions another pass holds until their lease ends', async () => {
    const { clock, provider, sessions, run } = await setUp();
    clock.advance(60_000);
    await sessions.claimForSync(clock.now(), new Date(clock.now().getTime() + 30_000), 3);
    expect((await run(5)).claimed).toBe(2);
    provider.calls.length = 0;
    clock.advance(30_000);
    expect((await run(5)).claimed).toBe(5);
  });

  it('answers an empty report when nothing is active', async () => {
    const reconcile = new ReconcileSessions({
      sessions: new InMemorySessionRepository(),
      provider: new FakeBrowserProvider({ clock: new ManualClock() }),
      clock: new ManualClock(),
    });
    expect(await reconcile.execute({ batchSize: 10, concurrency: 4, leaseSec: 30 })).toEqual({
      claimed: 0,
      synced: 0,
      failed: 0,
      endedAsError: 0,
    });
  });

  it('refreshes each of more than one batch of sessions once per pass, given the pass start as cut-off', async () => {
    const { clock, sessions, provider, startSession } = await givenSessionWorld();
    const started: BrowserSession[] = [];
    for (let i = 0; i < 120; i++) started.push(await startSession());
    provider.calls.length = 0;
    clock.advance(60_000);
    const reconcile = new ReconcileSessions({ sessions, provider, clock });
    // A pass as the server's reconciler runs it: batches until one comes back short.
    const syncedBefore = clock.now();
    const reports = [];
    for (let round = 0; round < 10; round++) {
      const report = await reconcile.execute({ batchSize: 50, concurrency: 4, leaseSec: 30, syncedBefore });
      reports.push(report);
      if (report.claimed < 50) break;
    }
    expect(reports.map((r) => r.claimed)).toEqual([50, 50, 20]);
    const gets = provider.calls.flatMap((c) => (c.op === 'get' ? [c.providerSessionId] : []));
    expect(gets.sort()).toEqual(started.map((s) => s.providerSessionId).sort());
  });
});

describe('ReconcileSessions with two instances of a provider whose browsers live in one process', () => {
  async function setUpTwo() {
    const world = await givenTwoInstances();
    const onA = [
      await world.startSession({ timeoutSec: 120 }),
      await world.startSession({ timeoutSec: 600 }),
    ];
    const createOnB = new CreateSession({ ...world, provider: world.other });
    const { session: onB } = await createOnB.execute({
      caller: asUser(OWNER),
      projectId: world.project.id,
      request: { timeoutSec: 120 },
    });
    world.provider.calls.length = 0;
    world.other.calls.length = 0;
    const reconcileOn = (provider: FakeBrowserProvider) =>
      new ReconcileSessions({ sessions: world.sessions, provider, clock: world.clock }).execute({
        batchSize: 10,
        concurrency: 2,
        leaseSec: 30,
      });
    const stored = async (s: BrowserSession) => (await world.sessions.findInProject(world.project.id, s.id))!;
    return { ...world, onA, onB, reconcileOn, stored };
  }

  it('claims and refreshes only its own sessions: the other instance’s stay as stored, their browsers running', async () => {
    const { clock, provider, other, onA, onB, reconcileOn, stored } = await setUpTwo();
    clock.advance(60_000);
    expect(await reconcileOn(other)).toEqual({ claimed: 1, synced: 1, failed: 0, endedAsError: 0 });
    expect(other.calls).toEqual([{ op: 'get', providerSessionId: onB.providerSessionId }]);
    expect(provider.calls).toEqual([]);
    for (const s of onA) expect(await stored(s)).toEqual(s);
    expect(provider.running).toEqual(onA.map((s) => s.providerSessionId));
    // Instance a refreshes its own two, and leaves b's alone.
    expect(await reconcileOn(provider)).toEqual({ claimed: 2, synced: 2, failed: 0, endedAsError: 0 });
    expect(provider.calls.map((c) => (c.op === 'get' ? c.providerSessionId : c.op)).sort()).toEqual(
      onA.map((s) => s.providerSessionId).sort(),
    );
    expect((await stored(onB)).lastSyncedAt.toISOString()).toBe(clock.now().toISOString());
  });

  it('ends another instance’s session as TIMED_OUT once 5 minutes past its expiresAt, asking no provider', async () => {
    const { clock, provider, other, onA, onB, reconcileOn, stored } = await setUpTwo();
    // onA[0] and onB expire after 120 s, onA[1] after 600 s.
    clock.advance(420_000 - 1);
    expect(await reconcileOn(other)).toMatchObject({ claimed: 1, synced: 1 });
    expect((await stored(onA[0]!)).status).toBe('RUNNING');
    clock.advance(1);
    expect(await reconcileOn(other)).toEqual({ claimed: 2, synced: 2, failed: 0, endedAsError: 0 });
    const expired = await stored(onA[0]!);
    expect(expired.status).toBe('TIMED_OUT');
    expect(expired.endedAt?.toISOString()).toBe(onA[0]!.expiresAt!.toISOString());
    expect(await stored(onA[1]!)).toEqual(onA[1]);
    expect(provider.calls).toEqual([]);
    expect(other.calls.every((c) => c.op === 'get' && c.providerSessionId === onB.providerSessionId)).toBe(
      true,
    );
  });
});
