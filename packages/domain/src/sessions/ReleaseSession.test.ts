import type { FakeBrowserProvider } from '@browserdeck/testing';
import { givenSessionWorld, givenTwoInstances } from '@browserdeck/testing';
import { describe, expect, it } from 'vitest';
import { asUser } from '../access/Caller.ts';
import { ReleaseSession } from './ReleaseSession.ts';

const OWNER = 'owner-1';

async function setUp() {
  const { clock, projects, sessions, provider, project, startSession } = await givenSessionWorld();
  const session = await startSession();
  provider.calls.length = 0;
  const releaseSession = new ReleaseSession({ projects, sessions, provider, clock });
  const release = (ownerId = OWNER, sessionId = session.id) =>
    releaseSession.execute({ caller: asUser(ownerId), projectId: project.id, sessionId });
  const storedSession = async () => (await sessions.findInProject(project.id, session.id))!;
  return { clock, provider, session, sessions, release, storedSession, projects, project };
}

describe('ReleaseSession', () => {
  it('keeps the reason a session had already ended for at the provider', async () => {
    const { clock, provider, session, release, storedSession } = await setUp();
    clock.advance(30_000);
    provider.setStatus(session.providerSessionId, 'TIMED_OUT');
    clock.advance(30_000);
    const released = await release();
    expect(released.status).toBe('TIMED_OUT');
    expect(released.endedAt?.toISOString()).toBe('2026-03-01T12:00:30.000Z');
    expect((await storedSession()).status).toBe('TIMED_OUT');
  });

  it('asks the provider to end the session and stores it COMPLETED, ended now', async () => {
    const { clock, provider, session, release, storedSession } = await setUp();
    clock.advance(90_000);
    const released = await release();
    expect(provider.calls).toEqual([
      {
        op: 'release',
        providerSessionId: session.providerSessionId,
        providerProjectId: session.providerProjectId,
      },
    ]);
    expect(provider.running).toEqual([]);
    expect(released.status).toBe('COMPLETED');
    expect(released.endedAt?.toISOString()).toBe('2026-03-01T12:01:30.000Z');
    const stored = await storedSession();
    expect(stored.status).toBe('COMPLETED');
    expect(stored.endedAt?.toISOString()).toBe('2026-03-01T12:01:30.000Z');
    expect(stored.updatedAt.toISOString()).toBe('2026-03-01T12:01:30.000Z');
  });

  it('is idempotent: a second release returns the session unchanged without a provider call', async () => {
    const { clock, provider, release } = await setUp();
    const first = await release();
    clock.advance(60_000);
    const second = await release();
    expect(provider.calls.filter((c) => c.op === 'release')).toHaveLength(1);
    expect(second.status).toBe('COMPLETED');
    expect(second.endedAt?.toISOString()).toBe(first.endedAt?.toISOString());
    expect(second.updatedAt.toISOString()).toBe(first.updatedAt.toISOString());
  });

  it('completes a session the provider no longer knows', async () => {
    const { provider, session, release, storedSession } = await setUp();
    provider.forget(session.providerSessionId);
    expect((await release()).status).toBe('COMPLETED');
    expect((await storedSession()).status).toBe('COMPLETED');
  });

  it('lets a provider error through and changes nothing', async () => {
    const { provider, session, release, storedSession } = await setUp();
    provider.failNext('release', 'provider_error');
    await expect(release()).rejects.toMatchObject({ code: 'provider_error' });
    const stored = await storedSession();
    expect(stored.status).toBe('RUNNING');
    expect(stored.endedAt).toBeNull();
    expect(provider.running).toEqual([session.providerSessionId]);
  });

  it('stores the status alone, ended now, when the ended session cannot be stored whole', async () => {
    const { clock, provider, session, sessions, release, storedSession } = await setUp();
    clock.advance(30_000);
    provider.setStatus(session.providerSessionId, 'TIMED_OUT');
    clock.advance(30_000);
    sessions.failNextUpdates(1);
    const released = await release();
    // TIMED_OUT as the provider reported, but ended now: its end time was part of what failed.
    expect(released).toMatchObject({ status: 'TIMED_OUT', connectUrl: session.connectUrl });
    expect(released.endedAt?.toISOString()).toBe('2026-03-01T12:01:00.000Z');
    expect({ ...(await storedSession()) }).toEqual({ ...released });
    expect(provider.running).toEqual([]);
  });

  it('reports the first error when the status-only write fails too, and changes nothing', async () => {
    const { sessions, release, storedSession } = await setUp();
    const refused = new Error('the database refused the row');
    sessions.failNextUpdates(1, refused);
    sessions.updateStatus = () => Promise.reject(new Error('down as well'));
    await expect(release()).rejects.toBe(refused);
    expect((await storedSession()).status).toBe('RUNNING');
  });

  it('releases sessions of an archived project', async () => {
    const { release, projects, project, clock } = await setUp();
    project.archive(clock.now());
    await projects.update(project);
    expect((await release()).status).toBe('COMPLETED');
  });

  it('answers not_found for another owner and an unknown session, without a provider call', async () => {
    const { release, provider } = await setUp();
    await expect(release('owner-2')).rejects.toMatchObject({ code: 'not_found' });
    await expect(release(OWNER, '00000000-0000-7000-8000-0000000fffff')).rejects.toMatchObject({
      code: 'not_found',
    });
    expect(provider.calls).toEqual([]);
  });
});

describe('ReleaseSession of a session another instance holds', () => {
  async function setUpTwo() {
    const world = await givenTwoInstances();
    const session = await world.startSession({ timeoutSec: 120 });
    world.provider.calls.length = 0;
    const releaseOn = (provider: FakeBrowserProvider) =>
      new ReleaseSession({ ...world, provider }).execute({
        caller: asUser(OWNER),
        projectId: world.project.id,
        sessionId: session.id,
      });
    const stored = async () => (await world.sessions.findInProject(world.project.id, session.id))!;
    return { ...world, session, releaseOn, stored };
  }

  it('refuses with session_on_other_instance and leaves the session and its browser as they are', async () => {
    const { clock, provider, other, session, releaseOn, stored } = await setUpTwo();
    clock.advance(30_000);
    await expect(releaseOn(other)).rejects.toMatchObject({
      name: 'SessionOnOtherInstanceError',
      code: 'session_on_other_instance',
    });
    expect(await stored()).toEqual(session);
    expect(provider.running).toEqual([session.providerSessionId]);
    expect([...other.calls, ...provider.calls]).toEqual([]);
    // The instance holding it releases it.
    const released = await releaseOn(provider);
    expect(released.status).toBe('COMPLETED');
    expect((await stored()).status).toBe('COMPLETED');
    expect(provider.running).toEqual([]);
  });

  it('returns it unchanged once it has ended, from any instance', async () => {
    const { other, provider, releaseOn } = await setUpTwo();
    const ended = await releaseOn(provider);
    const again = await releaseOn(other);
    expect(again).toEqual(ended);
    expect(other.calls).toEqual([]);
  });

  it('stores it TIMED_OUT at its expiresAt once 5 minutes past it, asking no provider', async () => {
    const { clock, provider, other, session, releaseOn, stored } = await setUpTwo();
    clock.advance(420_000);
    const released = await releaseOn(other);
    expect(released.status).toBe('TIMED_OUT');
    expect(released.endedAt?.toISOString()).toBe(session.expiresAt!.toISOString());
    expect((await stored()).status).toBe('TIMED_OUT');
    expect((await stored()).updatedAt.toISOString()).toBe(clock.now().toISOString());
    expect([...other.calls, ...provider.calls]).toEqual([]);
  });
});
