import type { DatabaseDialect } from './BrowserdeckOrm.ts';

/**
 * `date` as a parameter of a hand-written statement, in the form MikroORM stores `datetime(3)`
 * columns: epoch milliseconds on SQLite, a `timestamptz` on PostgreSQL.
 */
export function sqlTime(dialect: DatabaseDialect, date: Date): Date | number {
  return dialect === 'sqlite' ? date.getTime() : date;
}
