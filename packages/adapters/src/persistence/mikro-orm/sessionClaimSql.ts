import { ACTIVE_SESSION_STATUSES } from '@browserdeck/domain';
import type { DatabaseDialect } from './BrowserdeckOrm.ts';

const ACTIVE = ACTIVE_SESSION_STATUSES.map((s) => `'${s}'`).join(', ');

/**
 * With a scope: sessions of no instance, of the claimer's, or of another once expired by the cut-off.
 * The two parameters are the claimer's instance id (null matches nothing) and the cut-off.
 */
const SCOPE_SQL = `and (provider_instance_id is null or provider_instance_id = ?
        or (expires_at is not null and expires_at <= ?))`;

/**
 * The reconciler's claim, one statement, hand-written: a conditional `update … where id in (select …
 * limit … for update skip locked) returning *` whose locking clause exists on PostgreSQL only; it
 * decides which instance syncs which session, so it stays as reviewed SQL. PostgreSQL: `for update skip locked`, so concurrent
 * claimers pass over each other's rows, and a row another claimer leased in the meantime fails the
 * re-checked `where`. SQLite serializes writers, so the plain statement is already exclusive.
 * Parameters: lease end, now, synced-before cut-off, then the scope's two (when scoped), then the limit.
 */
function claimSql(dialect: DatabaseDialect, scoped: boolean): string {
  return `update browser_sessions set sync_lease_until = ? where id in (
      select id from browser_sessions
      where status in (${ACTIVE}) and (sync_lease_until is null or sync_lease_until <= ?)
        and last_synced_at < ? ${scoped ? SCOPE_SQL : ''}
      order by last_synced_at, id limit ?${dialect === 'postgresql' ? ' for update skip locked' : ''})
    returning *`;
}

/** The claim statement of each dialect, with a scope and without. */
export const CLAIM_SQL = {
  postgresql: { scoped: claimSql('postgresql', true), all: claimSql('postgresql', false) },
  sqlite: { scoped: claimSql('sqlite', true), all: claimSql('sqlite', false) },
} as const;
