import type { FakeBrowserProvider } from '@browserdeck/testing';
import { givenSessionWorld, givenTwoInstances } from '@browserdeck/testing';
import { describe, expect, it } from 'vitest';
import { asUser } from '../access/Caller.ts';
import { DomainError } from '../shared/DomainError.ts';
import type { Logger } from '../shared/Logger.ts';
import { GetSession } from './GetSession.ts';
import { ReleaseSession } from './ReleaseSession.ts';

const OWNER = 'owner-1';

async function setUp() {
  const { clock, projects, sessions, provider, project, startSession } = await givenSessionWorld();
  const session = await startSession();
  provider.calls.length = 0;
  const warnings: Array<Record<string, unknown>> = [];
  const logger: Logger = { warn: (details) => warnings.push(details), error: () => {} };
  const getSession = new GetSession({ projects, sessions, provider, clock, logger });
  const get = (sessionId = session.id, ownerId = OWNER) =>
    getSession.execute({ caller: asUser(ownerId), projectId: project.id, sessionId });
  const release = () =>
    new ReleaseSession({ projects, sessions, provider, clock }).execute({
      caller: asUser(OWNER),
      projectId: project.id,
      sessionId: session.id,
    });
  const storedSession = async () => (await sessions.findInProject(project.id, session.id))!;
  return { clock, provider, session, sessions, get, release, storedSession, projects, project, warnings };
}

describe('GetSession', () => {
  it('answers the stored state without asking the provider when refresh is false', async () => {
    const { clock, provider, session, project, sessions, projects } = await setUp();
    provider.setStatus(session.providerSessionId, 'TIMED_OUT');
    const getSession = new GetSession({ projects, sessions, provider, clock });
    const { session: got, syncError } = await getSession.execute({
      caller: asUser(OWNER),
      projectId: project.id,
      sessionId: session.id,
      refresh: false,
    });
    expect(provider.calls).toEqual([]);
    expect([got.status, syncError]).toEqual(['RUNNING', null]);
  });

  it('refreshes an active session from the provider and stores the change', async () => {
    const { clock, provider, session, get, storedSession } = await setUp();
    clock.advance(30_000);
    provider.setStatus(session.providerSessionId, 'TIMED_OUT');
    clock.advance(5_000);
    const { session: got, syncError } = await get();
    expect(syncError).toBeNull();
    expect(provider.calls).toEqual([{ op: 'get', providerSessionId: session.providerSessionId }]);
    expect(got.status).toBe('TIMED_OUT');
    expect(got.endedAt?.toISOString()).toBe('2026-03-01T12:00:30.000Z');
    expect(got.lastSyncedAt.toISOString()).toBe('2026-03-01T12:00:35.000Z');
    expect(got.updatedAt.toISOString()).toBe('2026-03-01T12:00:35.000Z');
    const stored = await storedSession();
    expect(stored.status).toBe('TIMED_OUT');
    expect(stored.endedAt?.toISOString()).toBe('2026-03-01T12:00:30.000Z');
  });

  it('moves lastSyncedAt but not updatedAt when nothing changed', async () => {
    const { clock, get, storedSession } = await setUp();
    clock.advance(10_000);
    const { session } = await get();
    expect(session.status).toBe('RUNNING');
    const stored = await storedSession();
    expect(stored.lastSyncedAt.toISOString()).toBe('2026-03-01T12:00:10.000Z');
    expect(stored.updatedAt.toISOString()).toBe('2026-03-01T12:00:00.000Z');
  });

  it('marks a session the provider forgot as COMPLETED, ended now', async () => {
    const { clock, provider, session, get, storedSession } = await setUp();
    provider.forget(session.providerSessionId);
    clock.advance(60_000);
    const { session: got, syncError } = await get();
    expect(syncError).toBeNull();
    expect(got.status).toBe('COMPLETED');
    expect(got.endedAt?.toISOString()).toBe('2026-03-01T12:01:00.000Z');
    expect((await storedSession()).status).toBe('COMPLETED');
  });

  it('answers the stored state with syncError when the provider is unavailable', async () => {
    const { clock, provider, session, get, storedSession } = await setUp();
    provider.setStatus(session.providerSessionId, 'ERROR');
    provider.failNext('get', 'provider_unavailable');
    clock.advance(60_000);
    const { session: got, syncError } = await get();
    expect(syncError).toBe('provider_unavailable');
    expect(got.status).toBe('RUNNING');
    expect(got.lastSyncedAt.toISOString()).toBe('2026-03-01T12:00:00.000Z');
    const stored = await storedSession();
    expect(stored.status).toBe('RUNNING');
    expect(stored.lastSyncedAt.toISOString()).toBe('2026-03-01T12:00:00.000Z');
  });

  it('passes a timeout code on as syncError too', async () => {
    const { provider, get } = await setUp();
    provider.failNext('get', 'provider_timeout');
    expect((await get()).syncError).toBe('provider_timeout');
  });

  it('answers the stored state with syncError internal when the refresh cannot be stored, and logs it', async () => {
    const { clock, provider, session, sessions, get, storedSession, warnings } = await setUp();
    provider.setStatus(session.providerSessionId, 'COMPLETED');
    sessions.failNextUpdates(1);
    clock.advance(60_000);
    const { session: got, syncError } = await get();
    expect(syncError).toBe('internal');
    expect({ ...got }).toEqual({ ...(await storedSession()) });
    expect(got).toMatchObject({ status: 'RUNNING', endedAt: null });
    expect(got.lastSyncedAt.toISOString()).toBe('2026-03-01T12:00:00.000Z');
    expect(warnings).toEqual([{ sessionId: session.id, error: 'Error: the database refused the row' }]);
    // The next refresh that can be stored brings it up to date.
    expect(await get()).toMatchObject({ session: { status: 'COMPLETED' }, syncError: null });
  });

  it('passes the store’s own code on when it has one (database_unavailable)', async () => {
    const { sessions, get } = await setUp();
    sessions.failNextUpdates(1, new DomainError('database_unavailable', 'The database is not answering.'));
    expect((await get()).syncError).toBe('database_unavailable');
  });

  it('does not ask the provider about a terminal session, which stays final', async () => {
    const { clock, provider, session, get, release, storedSession } = await setUp();
    clock.advance(1_000);
    await release();
    const endedAt = (await storedSession()).endedAt?.toISOString();
    // The provider (wrongly) says it runs again.
    provider.setStatus(session.providerSessionId, 'RUNNING');
    provider.calls.length = 0;
    clock.advance(60_000);
    const { session: got, syncError } = await get();
    expect(syncError).toBeNull();
    expect(provider.calls).toEqual([]);
    expect(got.status).toBe('COMPLETED');
    expect(got.endedAt?.toISOString()).toBe(endedAt);
    expect((await storedSession()).status).toBe('COMPLETED');
  });

  it('answers not_found for an unknown session and for another owner', async () => {
    const { get, provider } = await setUp();
    await expect(get('00000000-0000-7000-8000-0000000fffff')).rejects.toMatchObject({ code: 'not_found' });
    await expect(get(undefined, 'owner-2')).rejects.toMatchObject({ code: 'not_found' });
    expect(provider.calls).toEqual([]);
  });

  it('reads sessions of an archived project', async () => {
    const { get, projects, project, clock } = await setUp();
    project.archive(clock.now());
    await projects.update(project);
    expect((await get()).session.status).toBe('RUNNING');
  });
});

describe('GetSession of a session another instance holds', () => {
  async function setUpTwo() {
    const world = await givenTwoInstances();
    const session = await world.startSession({ timeoutSec: 120 });
    world.provider.calls.length = 0;
    const getOn = (provider: FakeBrowserProvider) =>
      new GetSession({ ...world, provider }).execute({
        caller: asUser(OWNER),
        projectId: world.project.id,
        sessionId: session.id,
      });
    const stored = async () => (await world.sessions.findInProject(world.project.id, session.id))!;
    return { ...world, session, getOn, stored };
  }

  it('answers it as stored with session_on_other_instance, asks no provider and changes nothing', async () => {
    const { clock, provider, other, session, getOn, stored } = await setUpTwo();
    expect(session.providerInstanceId).toBe('instance-a');
    clock.advance(30_000);
    const { session: got, syncError } = await getOn(other);
    expect(syncError).toBe('session_on_other_instance');
    expect(got).toMatchObject({ id: session.id, status: 'RUNNING', endedAt: null });
    expect(got.lastSyncedAt.toISOString()).toBe(session.lastSyncedAt.toISOString());
    expect(other.calls).toEqual([]);
    expect(provider.calls).toEqual([]);
    expect(await stored()).toEqual(session);
    expect(provider.running).toEqual([session.providerSessionId]);
  });

  it('still refreshes it on the instance holding it', async () => {
    const { clock, provider, session, getOn } = await setUpTwo();
    clock.advance(10_000);
    provider.setStatus(session.providerSessionId, 'TIMED_OUT');
    const { session: got, syncError } = await getOn(provider);
    expect(syncError).toBeNull();
    expect(got.status).toBe('TIMED_OUT');
    expect(provider.calls).toEqual([{ op: 'get', providerSessionId: session.providerSessionId }]);
  });

  it('ends it as TIMED_OUT at its expiresAt once 5 minutes past it, still without asking a provider', async () => {
    const { clock, provider, other, session, getOn, stored } = await setUpTwo();
    // 120 s of life, then 300 s of grace: a millisecond short of it, it is left alone.
    clock.advance(420_000 - 1);
    expect((await getOn(other)).syncError).toBe('session_on_other_instance');
    expect((await stored()).status).toBe('RUNNING');
    clock.advance(1);
    const { session: got, syncError } = await getOn(other);
    expect(syncError).toBeNull();
    expect(got.status).toBe('TIMED_OUT');
    const saved = await stored();
    expect(saved.status).toBe('TIMED_OUT');
    expect(saved.endedAt?.toISOString()).toBe(session.expiresAt!.toISOString());
    expect(saved.updatedAt.toISOString()).toBe(clock.now().toISOString());
    expect([...other.calls, ...provider.calls]).toEqual([]);
  });
});
