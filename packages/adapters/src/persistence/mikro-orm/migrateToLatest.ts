import type { MigrationInfo } from '@mikro-orm/core';
import { type BrowserdeckOrm, dialectOf } from './BrowserdeckOrm.ts';

/** An arbitrary, fixed key for PostgreSQL's advisory lock around migrations. */
const MIGRATION_LOCK_KEY = 7_042_513_289;

/**
 * Applies the checked-in migrations of the connected dialect that the database has not seen yet
 * (tracked in `mikro_orm_migrations`); returns the ones it applied. On PostgreSQL, all of them run
 * in one transaction holding an advisory lock, so several server instances starting together apply
 * each migration once.
 */
export async function migrateToLatest(orm: BrowserdeckOrm): Promise<MigrationInfo[]> {
  if (dialectOf(orm) !== 'postgresql') return orm.migrator.up();
  return orm.em.fork().transactional(async (em) => {
    await em
      .getConnection()
      .execute('select pg_advisory_xact_lock(?)', [MIGRATION_LOCK_KEY], 'all', em.getTransactionContext());
    return orm.migrator.up({ transaction: em.getTransactionContext() });
  });
}
