import { SESSION_STATUSES, type SessionStats, type SessionStatus } from '@browserdeck/domain';
import { type BrowserdeckOrm, type DatabaseDialect, dialectOf } from './BrowserdeckOrm.ts';
import { sqlTime } from './sqlTime.ts';

const DAY_MS = 86_400_000;

/** One column per status: `count(*) filter (where status = 'RUNNING') as "RUNNING"`. */
const BY_STATUS = SESSION_STATUSES.map((s) => `count(*) filter (where status = '${s}') as "${s}"`).join(', ');

/**
 * Averaged and summed durations in seconds, each clamped at 0 (a provider clock ahead of ours must
 * not subtract time). SQLite keeps `datetime(3)` as epoch milliseconds: integer arithmetic. On
 * PostgreSQL the per-row work stays in interval arithmetic (integers inside) and `extract(epoch …)`
 * runs once on the aggregate: per row it yields `numeric`, which doubled the statement's time over a
 * project's 10,000 sessions (see "Sessions at scale" in docs/adr/0002-persistence.md).
 */
const DURATIONS = {
  sqlite: {
    avgEnded: 'avg(max(0, ended_at - started_at) / 1000.0) filter (where ended_at is not null)',
    sumUpToNow: 'sum(max(0, coalesce(ended_at, ?) - started_at) / 1000.0)',
  },
  postgresql: {
    avgEnded:
      "extract(epoch from avg(greatest(interval '0', ended_at - started_at)) filter (where ended_at is not null))",
    sumUpToNow:
      "extract(epoch from sum(greatest(interval '0', coalesce(ended_at, ?::timestamptz) - started_at)))",
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
  const { avgEnded, sumUpToNow } = DURATIONS[dialect];
  const sql = `select count(*) as "total", ${BY_STATUS},
      count(*) filter (where created_at > ?) as "createdLast24h",
      coalesce(${avgEnded}, 0) as "avgDurationSec",
      coalesce(${sumUpToNow}, 0) as "totalBrowserSec",
      coalesce(sum(proxy_bytes), 0) as "totalProxyBytes"
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
    totalProxyBytes: value('totalProxyBytes'),
  };
}
