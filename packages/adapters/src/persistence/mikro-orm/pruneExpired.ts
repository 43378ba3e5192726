import type { NativeSql } from './NativeSql.ts';

/** Expired rows one write deletes at most: pruning stays bounded whatever the backlog. */
export const PRUNED_PER_WRITE = 100;

/**
 * Deletes up to `PRUNED_PER_WRITE` rows of `table` whose `expiresColumn` is at or before `now`:
 * the housekeeping the stores with expiring rows do after each write. Best-effort: the write it
 * follows has already happened, so a failure here is swallowed (the next write prunes again) and
 * never fails the caller. On PostgreSQL the rows are taken `for update skip locked`, so instances
 * pruning at once never wait on (or deadlock with) each other.
 */
export async function pruneExpired(
  sql: NativeSql,
  table: string,
  keyColumn: string,
  expiresColumn: string,
  now: Date,
): Promise<void> {
  const lock = sql.dialect === 'postgresql' ? ' for update skip locked' : '';
  const text =
    `delete from ${table} where ${keyColumn} in (select ${keyColumn} from ${table} ` +
    `where ${expiresColumn} <= ? limit ${PRUNED_PER_WRITE}${lock})`;
  await sql.run(text, [now]).catch(() => {});
}
