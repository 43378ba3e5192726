import { SESSION_STATUSES, type SessionStats, type SessionStatus } from '@browserdeck/domain';
import { type BrowserdeckOrm, type DatabaseDialect, dialectOf } from './BrowserdeckOrm.ts';
import { sqlTime } from './sqlTime.ts';

const DAY_MS = 86_400_000;

/** One column per status: `count(*) filter (where status = 'RUNNING') as "RUNNING"`. */
const BY_STATUS = SESSION_STATUSES.map((s) => `count(*) filter (where status = '${s}') as "${s}"`).join(', ');

/**
 * Durations in seconds, clamped at 0 (a provider clock ahead of ours must not subtract time).
 * SQLite keeps `datetime(3)` as epoch milliseconds; PostgreSQL subtracts timestamps into intervals.
 */
const DURATIONS = {
  sqlite: {
    ended: 'max(0, ended_at - started_at) / 1000.0',
    upToNow: 'max(0, coalesce(ended_at, ?) - started_at) / 1000.0',
  },
  postgresql: {
    ended: 'greatest(0, extract(epoch from ended_at - started_at))',
    upToNow: 'greatest(0, extract(epoch from coalesce(ended_at, ?::timestamptz) - started_at))',
  },
} as const;

/**
 * The statement behind `querySessionStats` and its parameters (`?` placeholders), exposed so that
 * benchmarks can show its query plan.
 */
export function sessionStatsStatement(
  dialect: DatabaseDialect,
  projectId: string,
  now: Date,
): { sql: string; params: Array<Date | number | string> } {
  const { ended, upToNow } = DURATIONS[dialect];
  const sql = `select count(*) as "total", ${BY_STATUS},
      count(*) filter (where created_at > ?) as "createdLast24h",
      coalesce(avg(${ended}) filter (where ended_at is not null), 0) as "avgDurationSec",
      coalesce(sum(${upToNow}), 0) as "totalBrowserSec"
    from browser_sessions where project_id = ?`;
  return {
    sql,
    params: [sqlTime(dialect, new Date(now.getTime() - DAY_MS)), sqlTime(dialect, now), projectId],
  };
}

/**
 * A project's session statistics in one aggregate statement: the database counts and sums, no
 * session is loaded. `now` closes the durations of active sessions and anchors "last 24 h".
 */
export async function querySessionStats(
  orm: BrowserdeckOrm,
  projectId: string,
  now: Date,
): Promise<SessionStats> {
  const { sql, params } = sessionStatsStatement(dialectOf(orm), projectId, now);
  const [row] = await orm.em.fork().getConnection().execute<Record<string, unknown>[]>(sql, params);
  // PostgreSQL answers bigint and numeric as strings.
  const value = (name: string) => Number(row?.[name] ?? 0);
  return {
    total: value('total'),
    byStatus: Object.fromEntries(SESSION_STATUSES.map((s) => [s, value(s)])) as Record<SessionStatus, number>,
    createdLast24h: value('createdLast24h'),
    avgDurationSec: value('avgDurationSec'),
    totalBrowserSec: value('totalBrowserSec'),
  };
}
