import type { DatabaseDialect } from './BrowserdeckOrm.ts';

/**
 * `date` in the form MikroORM stores `datetime(3)` columns (epoch milliseconds on SQLite, a
 * `timestamptz` on PostgreSQL), for a date that travels inside a JSON parameter, where
 * `KyselyQueries` cannot see it (a batch of run log lines).
 */
export function sqlTime(dialect: DatabaseDialect, date: Date): Date | number {
  return dialect === 'sqlite' ? date.getTime() : date;
}
