/**
 * The query plans behind the two measured endpoints, as the database chose them on the seeded data:
 * `EXPLAIN (ANALYZE, BUFFERS)` on PostgreSQL, `EXPLAIN QUERY PLAN` on SQLite. The list statements
 * are built by MikroORM's query builder the way `MikroOrmSessionRepository.list` asks for them
 * (a page and a count); the stats statement is the repository's own.
 */
import type {
  BrowserdeckOrm,
  DatabaseDialect,
} from '../packages/adapters/src/persistence/mikro-orm/index.ts';
import { BrowserSessionSchema } from '../packages/adapters/src/persistence/mikro-orm/index.ts';
import { sessionStatsStatement } from '../packages/adapters/src/persistence/mikro-orm/querySessionStats.ts';

/** One statement and its plan. */
export interface QueryPlan {
  name: string;
  sql: string;
  plan: string;
}

/** The statements of `GET …/sessions?status=<status>&limit=20` and `GET …/sessions/dashboard/stats`. */
export function scaleStatements(
  orm: BrowserdeckOrm,
  dialect: DatabaseDialect,
  projectId: string,
  status: string,
  now: Date,
): Array<{ name: string; sql: string; params: unknown[] }> {
  // The relation's filter type wants an entity or a primary key; the plain id is what `list` passes.
  const where = { projectId, status } as never;
  const page = orm.em
    .fork()
    .createQueryBuilder(BrowserSessionSchema)
    .select('*')
    .where(where)
    .orderBy({ createdAt: 'desc', id: 'desc' })
    .limit(20)
    .offset(0)
    .getFormattedQuery();
  const count = orm.em
    .fork()
    .createQueryBuilder(BrowserSessionSchema)
    .count()
    .where(where)
    .getFormattedQuery();
  const stats = sessionStatsStatement(dialect, projectId, now);
  return [
    { name: `list page (status=${status}, limit 20)`, sql: page, params: [] },
    { name: `list total (status=${status})`, sql: count, params: [] },
    { name: 'dashboard stats', sql: stats.sql.replace(/\s+/g, ' '), params: stats.params },
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
      const rows = await connection.execute<Array<Record<string, string>>>(
        `explain (analyze, buffers) ${sql}`,
        params,
      );
      plans.push({ name, sql, plan: rows.map((r) => r['QUERY PLAN']).join('\n') });
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
      plans.push({ name, sql, plan: lines.join('\n') });
    }
  }
  return plans;
}
