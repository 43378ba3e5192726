import { givenSessionWorld } from '@browserdeck/testing';
import { describe, expect, it, vi } from 'vitest';
import { asUser } from '../access/Caller.ts';
import { DomainError } from '../shared/DomainError.ts';
import type { Logger } from '../shared/Logger.ts';
import { GetSession } from './GetSession.ts';
import { type ReconcileReport, ReconcileSessions } from './ReconcileSessions.ts';
import type { SessionRequest } from './resolveSessionSettings.ts';
import { syncRetryPolicy } from './syncRetry.ts';

const OWNER = 'owner-1';
const INTERVAL_SEC = 15;

/**
 * One active session and a reconciler run as the server runs it: a pass every 15 s. `passes(until)`
 * runs them and answers the seconds (since the session started) at which the provider was asked.
 */
async function setUp(request: SessionRequest = {}) {
  const { clock, projects, sessions, provider, project, startSession } = await givenSessionWorld();
  const session = await startSession(request);
  const start = clock.now().getTime();
  provider.calls.length = 0;
  const warnings: Array<{ details: Record<string, unknown>; message: string }> = [];
  const errors: Array<{ details: Record<string, unknown>; message: string }> = [];
  const logger: Logger = {
    warn: (details, message) => warnings.push({ details, message }),
    error: (details, message) => errors.push({ details, message }),
  };
  const reconcile = new ReconcileSessions({ sessions, provider, clock, logger });
  const reports: ReconcileReport[] = [];
  const second = () => (clock.now().getTime() - start) / 1000;
  const attempts: number[] = [];
  const passes = async (untilSec: number) => {
    while (second() < untilSec) {
      clock.advance(INTERVAL_SEC * 1000);
      const before = provider.calls.filter((c) => c.op === 'get').length;
      reports.push(
        await reconcile.execute({
          batchSize: 10,
          concurrency: 2,
          leaseSec: 30,
          syncedBefore: clock.now(),
          retry: syncRetryPolicy(INTERVAL_SEC),
        }),
      );
      if (provider.calls.filter((c) => c.op === 'get').length > before) attempts.push(second());
    }
    return attempts;
  };
  const stored = async () => (await sessions.findInProject(project.id, session.id))!;
  const get = () =>
    new GetSession({ projects, sessions, provider, clock }).execute({
      caller: asUser(OWNER),
      projectId: project.id,
      sessionId: session.id,
    });
  return { clock, sessions, provider, session, passes, stored, get, reports, warnings, errors, start };
}

const total = (reports: ReconcileReport[], key: keyof ReconcileReport) =>
  reports.reduce((sum, r) => sum + r[key], 0);

describe('ReconcileSessions: a session whose refresh fails', () => {
  it('is tried again after 1, 2, 4 intervals while storing fails, and synced normally once it works', async () => {
    const { sessions, provider, session, passes, stored, reports, warnings } = await setUp();
    sessions.failNextUpdates(3);
    provider.setStatus(session.providerSessionId, 'PENDING');

    // Fails at 15 s, 30 s and 60 s; stored at 120 s; then every pass again.
    expect(await passes(165)).toEqual([15, 30, 60, 120, 135, 150, 165]);
    expect(total(reports, 'failed')).toBe(3);
    expect(total(reports, 'endedAsError')).toBe(0);
    expect((await stored()).status).toBe('PENDING');
    expect(warnings.map((w) => w.message)).toEqual(
      Array(3).fill('session refresh could not be stored; trying again later'),
    );
    expect(warnings[0]!.details).toMatchObject({
      sessionId: session.id,
      error: 'Error: the database refused the row',
      retryAt: '2026-03-01T12:00:30.000Z',
    });
    expect(warnings[2]!.details.retryAt).toBe('2026-03-01T12:02:00.000Z');
  });

  it('waits at most 5 minutes between attempts, and stays RUNNING while it is within its lifetime', async () => {
    const { sessions, passes, stored, errors } = await setUp({ timeoutSec: 21_600 });
    sessions.failNextUpdates(1_000);
    const attempts = await passes(3_000);
    expect(attempts.slice(0, 8)).toEqual([15, 30, 60, 120, 240, 480, 780, 1080]);
    const gaps = attempts.slice(1).map((at, i) => at - attempts[i]!);
    expect(Math.max(...gaps)).toBe(300);
    expect((await stored()).status).toBe('RUNNING');
    expect(errors).toEqual([]);
  });

  it('holds a session back after a provider failure too', async () => {
    const { provider, passes, stored } = await setUp();
    provider.failNext('get', 'provider_unavailable');
    expect(await passes(60)).toEqual([15, 30, 45, 60]);
    provider.failNext('get', 'provider_unavailable');
    // At 75 s it had gone 15 s unsynced: the next attempt is one interval on, at 90 s.
    expect((await passes(120)).slice(4)).toEqual([75, 90, 105, 120]);
    provider.failNext('get', 'provider_unavailable');
    provider.failNext('get', 'provider_unavailable');
    // 135 s fails (15 s unsynced → 150 s), 150 s fails (30 s unsynced → 180 s).
    expect((await passes(210)).slice(8)).toEqual([135, 150, 180, 195, 210]);
    expect((await stored()).status).toBe('RUNNING');
  });

  it('is ended as ERROR, status only, when the provider says it ended and storing failed for 4 intervals', async () => {
    const { clock, sessions, provider, session, passes, stored, get, reports, errors, start } = await setUp();
    sessions.failNextUpdates(1_000);
    provider.setStatus(session.providerSessionId, 'COMPLETED');

    // 15 s and 30 s: not yet (one or two failures); 60 s: given up. Never claimed again after.
    expect(await passes(120)).toEqual([15, 30, 60]);
    expect(total(reports, 'endedAsError')).toBe(1);
    const ended = await stored();
    expect(ended.status).toBe('ERROR');
    expect(ended.endedAt?.getTime()).toBe(start + 60_000);
    expect(ended.updatedAt.getTime()).toBe(start + 60_000);
    expect(ended.lastSyncedAt.getTime()).toBe(start);
    expect(provider.calls.filter((c) => c.op === 'release')).toEqual([]);
    expect(errors).toEqual([
      {
        details: {
          sessionId: session.id,
          reason: 'provider_ended',
          error: 'Error: the database refused the row',
        },
        message: 'session refresh could not be stored; ended it as ERROR',
      },
    ]);
    // Terminal: GET answers it from the store, without asking the provider.
    provider.calls.length = 0;
    clock.advance(1_000);
    expect(await get()).toMatchObject({ session: { status: 'ERROR' }, syncError: null });
    expect(provider.calls).toEqual([]);
  });

  it('is released at the provider and ended as ERROR once past expiresAt plus 5 minutes, still running there', async () => {
    const { sessions, provider, session, passes, stored, errors, start } = await setUp({ timeoutSec: 60 });
    sessions.failNextUpdates(1_000);
    // expiresAt is 60 s in; give up at the first attempt from 360 s on: 480 s.
    expect(await passes(600)).toEqual([15, 30, 60, 120, 240, 480]);
    expect(provider.calls.filter((c) => c.op === 'release')).toEqual([
      {
        op: 'release',
        providerSessionId: session.providerSessionId,
        providerProjectId: session.providerProjectId,
      },
    ]);
    expect(await stored()).toMatchObject({ status: 'ERROR', endedAt: new Date(start + 480_000) });
    expect(errors.map((e) => e.details.reason)).toEqual(['past_expiry']);
  });

  it('is ended as ERROR past its lifetime even when the provider cannot release it (logged)', async () => {
    const { sessions, provider, passes, stored, errors } = await setUp({ timeoutSec: 60 });
    sessions.failNextUpdates(1_000);
    await passes(240);
    provider.failNext('release', 'provider_unavailable');
    await passes(480);
    expect((await stored()).status).toBe('ERROR');
    expect(errors.map((e) => e.message)).toEqual([
      'could not release a session given up on past its end of life',
      'session refresh could not be stored; ended it as ERROR',
    ]);
  });

  it('stays active and is tried again when the status-only write fails too', async () => {
    const { sessions, provider, session, passes, stored, warnings, reports } = await setUp();
    sessions.failNextUpdates(1_000);
    provider.setStatus(session.providerSessionId, 'COMPLETED');
    const unavailable = new DomainError('database_unavailable', 'down');
    const updateStatus = vi.spyOn(sessions, 'updateStatus').mockRejectedValueOnce(unavailable);
    // 60 s: giving up fails (the database is down); 120 s: given up.
    expect(await passes(180)).toEqual([15, 30, 60, 120]);
    expect(updateStatus).toHaveBeenCalledTimes(2);
    expect(reports.map((r) => r.endedAsError)).toContain(1);
    expect(warnings.map((w) => w.message)).toContain('could not end session as ERROR');
    expect((await stored()).status).toBe('ERROR');
  });
});
