import {
  aProject,
  FakeBrowserProvider,
  InMemoryAgentRepository,
  InMemoryAuditLog,
  InMemoryIdempotencyStore,
  InMemoryProjectRepository,
  InMemorySessionRepository,
  ManualClock,
  SequentialIdGenerator,
} from '@browserdeck/testing';
import { describe, expect, it } from 'vitest';
import { asUser } from '../access/Caller.ts';
import { AuditTrail } from '../audit/AuditTrail.ts';
import { ValidationError } from '../shared/DomainError.ts';
import { directTransactions } from '../shared/Transactions.ts';
import { CreateSession } from './CreateSession.ts';
import { GetSessionStats } from './GetSessionStats.ts';
import { ReleaseSession } from './ReleaseSession.ts';
import { STATS_SERIES_MAX_BUCKETS } from './statsSeriesRules.ts';

const OWNER = 'owner-1';

async function givenWorld() {
  const clock = new ManualClock('2026-03-01T12:00:00.000Z');
  const ids = new SequentialIdGenerator();
  const projects = new InMemoryProjectRepository();
  const sessions = new InMemorySessionRepository();
  const provider = new FakeBrowserProvider({ clock });
  const project = aProject({ id: ids.next(), ownerId: OWNER, now: clock.now() });
  await projects.add(project);
  const create = new CreateSession({
    projects,
    agents: new InMemoryAgentRepository(),
    sessions,
    provider,
    idempotency: new InMemoryIdempotencyStore(),
    audit: new AuditTrail({
      auditLog: new InMemoryAuditLog(),
      transactions: directTransactions,
      ids: new SequentialIdGenerator(),
      clock,
    }),
    ids,
    clock,
  });
  const newSession = () => create.execute({ caller: asUser(OWNER), projectId: project.id, request: {} });
  const stats = new GetSessionStats({ projects, sessions, clock });
  return { clock, projects, sessions, provider, project, newSession, stats };
}

const fieldsOf = async (promise: Promise<unknown>) => {
  const error = (await promise.then(
    () => null,
    (e: unknown) => e,
  )) as ValidationError | null;
  expect(error).toBeInstanceOf(ValidationError);
  return error?.errors ?? [];
};

describe('GetSessionStats', () => {
  it('answers the store’s statistics for the project at the clock’s now', async () => {
    const { clock, projects, sessions, provider, project, newSession, stats } = await givenWorld();
    const first = await newSession();
    clock.advance(100_000);
    await newSession();
    await new ReleaseSession({ projects, sessions, provider, clock }).execute({
      caller: asUser(OWNER),
      projectId: project.id,
      sessionId: first.session.id,
    });
    clock.advance(50_000);

    expect(await stats.execute({ caller: asUser(OWNER), projectId: project.id })).toEqual({
      total: 2,
      byStatus: { PENDING: 0, RUNNING: 1, COMPLETED: 1, ERROR: 0, TIMED_OUT: 0 },
      createdLast24h: 2,
      avgDurationSec: 100,
      totalBrowserSec: 150,
      totalProxyBytes: 0,
    });
    expect(await sessions.stats(project.id, clock.now())).toEqual(
      await stats.execute({ caller: asUser(OWNER), projectId: project.id }),
    );
    await expect(stats.execute({ caller: asUser('owner-2'), projectId: project.id })).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it('adds no series without an interval, and the same series as the store at the same now with one', async () => {
    const { clock, sessions, project, newSession, stats } = await givenWorld();
    await newSession();
    clock.advance(150_000);
    const caller = asUser(OWNER);
    const plain = await stats.execute({ caller, projectId: project.id });
    expect(Object.keys(plain)).not.toContain('series');

    const hourly = await stats.execute({ caller, projectId: project.id, interval: 'hour' });
    const now = clock.now();
    expect(hourly).toEqual({
      ...plain,
      series: await sessions.statsSeries(project.id, {
        interval: 'hour',
        from: new Date(now.getTime() - 24 * 3600_000),
        to: now,
        now,
      }),
    });
    // To now (12:02:30), from 24 h before, floored: 25 hours, the last one holding the session.
    expect(hourly.series).toHaveLength(25);
    expect(hourly.series?.[0]?.start.toISOString()).toBe('2026-02-28T12:00:00.000Z');
    expect(hourly.series?.[24]).toEqual({
      start: new Date('2026-03-01T12:00:00.000Z'),
      created: 1,
      completed: 0,
      errored: 0,
      timedOut: 0,
      browserSec: 150,
      proxyBytes: 0,
    });

    const daily = await stats.execute({ caller, projectId: project.id, interval: 'day' });
    expect(daily.series).toHaveLength(31);
    expect(daily.series?.[0]?.start.toISOString()).toBe('2026-01-30T00:00:00.000Z');
    expect(daily.series?.[30]).toMatchObject({ created: 1, browserSec: 150 });

    const range = await stats.execute({
      caller,
      projectId: project.id,
      interval: 'day',
      from: new Date('2026-02-27T23:59:59.999Z'),
      to: new Date('2026-03-01T00:00:00.000Z'),
    });
    expect(range.series?.map((b) => b.start.toISOString())).toEqual([
      '2026-02-27T00:00:00.000Z',
      '2026-02-28T00:00:00.000Z',
    ]);
  });

  it('refuses, naming the field: from or to without interval, from not before to, too many buckets', async () => {
    const { project, stats } = await givenWorld();
    const ask = (request: Record<string, unknown>) =>
      fieldsOf(stats.execute({ caller: asUser(OWNER), projectId: project.id, ...request }));
    const at = (iso: string) => new Date(iso);

    expect(await ask({ from: at('2026-02-01T00:00:00Z') })).toEqual([
      { path: 'from', message: 'is only allowed with interval (hour or day)' },
    ]);
    expect(
      (await ask({ from: at('2026-02-01T00:00:00Z'), to: at('2026-02-02T00:00:00Z') })).map((e) => e.path),
    ).toEqual(['from', 'to']);
    expect((await ask({ interval: 'week' })).map((e) => e.path)).toEqual(['interval']);
    expect((await ask({ interval: 'hour', to: new Date(Number.NaN) })).map((e) => e.path)).toEqual(['to']);
    expect(await ask({ interval: 'hour', from: at('2026-03-01T12:00:00Z') })).toEqual([
      { path: 'from', message: 'must be before to' },
    ]);
    expect(
      await ask({ interval: 'day', from: at('2026-02-02T00:00:00Z'), to: at('2026-02-01T00:00:00Z') }),
    ).toEqual([{ path: 'from', message: 'must be before to' }]);
    // 2000 hour buckets are the most; one more is refused.
    const to = at('2026-03-01T00:00:00.000Z');
    const hoursBefore = (n: number) => new Date(to.getTime() - n * 3600_000);
    const allowed = await stats.execute({
      caller: asUser(OWNER),
      projectId: project.id,
      interval: 'hour',
      from: hoursBefore(STATS_SERIES_MAX_BUCKETS),
      to,
    });
    expect(allowed.series).toHaveLength(STATS_SERIES_MAX_BUCKETS);
    expect(await ask({ interval: 'hour', from: hoursBefore(STATS_SERIES_MAX_BUCKETS + 1), to })).toEqual([
      { path: 'from', message: 'must be within 2000 hours of to (this span holds 2001 hour buckets)' },
    ]);
    expect((await ask({ interval: 'day', from: at('2000-01-01T00:00:00Z') })).map((e) => e.path)).toEqual([
      'from',
    ]);
    // Another user's project is still not found, with or without a series.
    await expect(
      stats.execute({ caller: asUser('owner-2'), projectId: project.id, interval: 'hour' }),
    ).rejects.toMatchObject({ code: 'not_found' });
  });
});
