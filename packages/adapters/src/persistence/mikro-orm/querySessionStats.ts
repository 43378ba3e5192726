import { SESSION_STATUSES, type SessionStats, type SessionStatus } from '@browserdeck/domain';
import { type RawBuilder, sql } from 'kysely';
import type { DatabaseDialect } from './BrowserdeckOrm.ts';
import type { KyselyQueries } from './KyselyQueries.ts';
import { statementText } from './statementText.ts';

const DAY_MS = 86_400_000;

/** One column per status: `count(*) filter (where status = 'RUNNING') as "RUNNING"`. */
const BY_STATUS = sql.join(
  SESSION_STATUSES.map((s) => sql`count(*) filter (where status = ${sql.lit(s)}) as ${sql.id(s)}`),
);

/**
 * Averaged and summed durations in seconds, each clamped at 0 (a provider clock ahead of ours must
 * not subtract time): the one dialect-specific part, a `sql` template beside its twin. SQLite keeps
 * `datetime(3)` as epoch milliseconds: integer arithmetic. On PostgreSQL the per-row work stays in
 * interval arithmetic (integers inside) and `extract(epoch …)` runs once on the aggregate: per row it
 * yields `numeric`, which doubled the statement's time over a project's 10,000 sessions (see
 * "Sessions at scale" in docs/adr/0002-persistence.md). `now` closes the active sessions. The
 * columns are unqualified: use it over `browser_sessions` alone or with tables that lack them
 * (`MikroOrmUsageRepository` joins `projects`).
 */
export function sessionDurations(
  dialect: DatabaseDialect,
  now: Date,
): { avgEnded: RawBuilder<unknown>; sumUpToNow: RawBuilder<unknown> } {
  return dialect === 'sqlite'
    ? {
        avgEnded: sql`avg(max(0, ended_at - started_at) / 1000.0) filter (where ended_at is not null)`,
        sumUpToNow: sql`sum(max(0, coalesce(ended_at, ${now}) - started_at) / 1000.0)`,
      }
    : {
        avgEnded: sql`extract(epoch from avg(greatest(interval '0', ended_at - started_at)) filter (where ended_at is not null))`,
        sumUpToNow: sql`extract(epoch from sum(greatest(interval '0', coalesce(ended_at, ${now}::timestamptz) - started_at)))`,
      };
}

/** The aggregate behind `querySessionStats`: one statement, one row, every value bound. */
function sessionStatsQuery(dialect: DatabaseDialect, projectId: string, now: Date): RawBuilder<unknown> {
  const { avgEnded, sumUpToNow } = sessionDurations(dialect, now);
  const dayAgo = new Date(now.getTime() - DAY_MS);
  return sql`select count(*) as "total", ${BY_STATUS},
      count(*) filter (where created_at > ${dayAgo}) as "createdLast24h",
      coalesce(${avgEnded}, 0) as "avgDurationSec",
      coalesce(${sumUpToNow}, 0) as "totalBrowserSec",
      coalesce(sum(proxy_bytes), 0) as "totalProxyBytes"
    from browser_sessions where project_id = ${projectId}`;
}

/**
 * The statement behind `querySessionStats`, `?` placeholders and its values as stored, exposed so
 * that benchmarks can show its query plan.
 */
export function sessionStatsStatement(
  dialect: DatabaseDialect,
  projectId: string,
  now: Date,
): { sql: string; params: unknown[] } {
  return statementText(dialect, () => sessionStatsQuery(dialect, projectId, now));
}

/**
 * A project's session statistics in one aggregate statement: the database counts and sums, no
 * session is loaded. `now` closes the durations of active sessions and anchors "last 24 h".
 */
export async function querySessionStats(
  queries: KyselyQueries,
  projectId: string,
  now: Date,
): Promise<SessionStats> {
  const [row] = await queries.rows(sessionStatsQuery(queries.dialect, projectId, now));
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
