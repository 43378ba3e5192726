/**
 * The query plans behind the measured endpoints, as the database chose them on the seeded data:
 * `EXPLAIN (ANALYZE, BUFFERS)` on PostgreSQL, `EXPLAIN QUERY PLAN` on SQLite. The statements are
 * the repository's own (`sessionListStatements`, `sessionStatsStatement`,
 * `sessionStatsSeriesStatement`), parameters inlined.
 */

import type { BrowserdeckOrm, DatabaseDialect } from '@browserdeck/adapters/mikro-orm';
import { type SessionStatus, STATS_DEFAULT_SPAN_MS, type StatsInterval } from '@browserdeck/domain';
import { sessionStatsStatement } from '../packages/adapters/src/persistence/mikro-orm/querySessionStats.ts';
import { sessionStatsSeriesStatement } from '../packages/adapters/src/persistence/mikro-orm/querySessionStatsSeries.ts';
import { sessionListStatements } from '../packages/adapters/src/persistence/mikro-orm/sessionListStatements.ts';

/** One statement and its plan. */
export interface QueryPlan {
  name: string;
  sql: string;
  params: unknown[];
  plan: string;
}

/**
 * The statements of `GET …/sessions?status=<status>&limit=20`, `GET …/sessions/dashboard/stats` and
 * the series it adds with `interval=hour` (the last 24 h) and `interval=day` (the last 30 days).
 */
export function scaleStatements(
  orm: BrowserdeckOrm,
  dialect: DatabaseDialect,
  projectId: string,
  status: string,
  now: Date,
): Array<{ name: string; sql: string; params: unknown[] }> {
  // Kysely compiles PostgreSQL placeholders as `$n`; `explainScale` runs `?` statements.
  const list = sessionListStatements(orm, projectId, {
    status: status as SessionStatus,
    limit: 20,
    offset: 0,
  });
  const [page, total] = [list.page, list.total].map((q) => ({
    sql: q.sql.replace(/\$\d+/g, '?'),
    params: [...q.parameters],
  })) as [{ sql: string; params: unknown[] }, { sql: string; params: unknown[] }];
  const stats = sessionStatsStatement(dialect, projectId, now);
  const series = (interval: StatsInterval) => {
    const from = new Date(now.getTime() - STATS_DEFAULT_SPAN_MS[interval]);
    const statement = sessionStatsSeriesStatement(dialect, projectId, { interval, from, to: now, now });
    const params = statement.params.map((v) => (dialect === 'sqlite' && v instanceof Date ? v.getTime() : v));
    return { name: `stats series (interval=${interval})`, sql: oneLine(statement.sql), params };
  };
  return [
    { name: `list page (status=${status}, limit 20)`, sql: oneLine(page.sql), params: page.params },
    { name: `list total (status=${status})`, sql: oneLine(total.sql), params: total.params },
    { name: 'dashboard stats', sql: oneLine(stats.sql), params: stats.params },
    series('hour'),
    series('day'),
  ];
}

/** Explains each statement on `orm`. */
export async function explainScale(
  orm: BrowserdeckOrm,
  dialect: DatabaseDialect,
  statements: Array<{ name: string; sql: string; params: unknown[] }>,
): Promise<QueryPlan[]> {
  const connection = orm.em.fork().getConnection();
  const plans: QueryPlan[] = [];
  for (const { name, sql, params } of statements) {
    if (dialect === 'postgresql') {
      // The second run is reported: the first may find cold caches (e.g. right after an index drop).
      const explain = () =>
        connection.execute<Array<Record<string, string>>>(`explain (analyze, buffers) ${sql}`, params);
      await explain();
      const rows = await explain();
      plans.push({ name, sql, params, plan: rows.map((r) => r['QUERY PLAN']).join('\n') });
    } else {
      const rows = await connection.execute<Array<{ id: number; parent: number; detail: string }>>(
        `explain query plan ${sql}`,
        params,
      );
      const depth = new Map<number, number>([[0, -1]]);
      const lines = rows.map((r) => {
        const d = (depth.get(r.parent) ?? -1) + 1;
        depth.set(r.id, d);
        return `${'  '.repeat(d)}${r.detail}`;
      });
      plans.push({ name, sql, params, plan: lines.join('\n') });
    }
  }
  return plans;
}

const oneLine = (sql: string) => sql.replace(/\s+/g, ' ').trim();
