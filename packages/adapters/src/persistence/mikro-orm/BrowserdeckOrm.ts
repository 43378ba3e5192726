import type { MikroORM } from '@mikro-orm/core';
import { type AbstractSqlDriver, BasePostgreSqlPlatform, type SqlEntityManager } from '@mikro-orm/sql';

/** An initialized MikroORM on one of the SQL dialects Browserdeck supports (SQLite, PostgreSQL). */
export type BrowserdeckOrm = MikroORM<AbstractSqlDriver, SqlEntityManager>;

/** The SQL dialects with checked-in migrations. */
export const DATABASE_DIALECTS = ['sqlite', 'postgresql'] as const;

/** One of `DATABASE_DIALECTS`. */
export type DatabaseDialect = (typeof DATABASE_DIALECTS)[number];

/**
 * Which dialect `orm` speaks, told by its platform (from `@mikro-orm/sql`, which every SQL driver
 * depends on), so this module loads neither driver package: each is an optional peer.
 */
export function dialectOf(orm: BrowserdeckOrm): DatabaseDialect {
  return orm.driver.getPlatform() instanceof BasePostgreSqlPlatform ? 'postgresql' : 'sqlite';
}
