import type { MikroORM } from '@mikro-orm/core';
import { PostgreSqlDriver } from '@mikro-orm/postgresql';
import type { AbstractSqlDriver, SqlEntityManager } from '@mikro-orm/sql';

/** An initialized MikroORM on one of the SQL dialects Browserdeck supports (SQLite, PostgreSQL). */
export type BrowserdeckOrm = MikroORM<AbstractSqlDriver, SqlEntityManager>;

/** The SQL dialects with checked-in migrations. */
export const DATABASE_DIALECTS = ['sqlite', 'postgresql'] as const;

/** One of `DATABASE_DIALECTS`. */
export type DatabaseDialect = (typeof DATABASE_DIALECTS)[number];

/** Which dialect `orm` speaks. */
export function dialectOf(orm: BrowserdeckOrm): DatabaseDialect {
  return orm.driver instanceof PostgreSqlDriver ? 'postgresql' : 'sqlite';
}
