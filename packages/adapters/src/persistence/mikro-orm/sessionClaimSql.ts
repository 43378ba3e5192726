import { ACTIVE_SESSION_STATUSES, type SyncScope } from '@browserdeck/domain';
import { sql } from 'kysely';
import type { KyselyQueries, Query } from './KyselyQueries.ts';

/** The active statuses as SQL literals: the reconciler's partial index names them in its `where`. */
const ACTIVE = ACTIVE_SESSION_STATUSES.map((status) => sql.lit(status));

/** What the reconciler claims: sessions due a sync, a lease for them, how many, and whose. */
export interface ClaimParams {
  now: Date;
  leaseUntil: Date;
  /** Only sessions last synced before this. */
  syncedBefore: Date;
  limit: number;
  scope?: SyncScope | undefined;
}

/**
 * The reconciler's claim, one statement: `update … set sync_lease_until = ? where id in (select …
 * order by last_synced_at, id limit … for update skip locked) returning *`. It decides which
 * instance syncs which session. PostgreSQL locks the chosen rows `for update skip locked`, so
 * concurrent claimers pass over each other's rows, and a row another claimer leased in the meantime
 * fails the re-checked `where`; SQLite has no row locks and serializes writers, so there the plain
 * statement is already exclusive. With a scope: sessions of no instance, of the claimer's, or of
 * another once expired by the cut-off (`othersExpiredBefore`).
 */
export function claimForSyncQuery(queries: KyselyQueries, params: ClaimParams): Query {
  const { db, dialect } = queries;
  const { now, leaseUntil, syncedBefore, limit, scope } = params;
  const due = db
    .selectFrom('browser_sessions')
    .select('id')
    .where('status', 'in', ACTIVE)
    .where((eb) => eb.or([eb('sync_lease_until', 'is', null), eb('sync_lease_until', '<=', now)]))
    .where('last_synced_at', '<', syncedBefore)
    .$if(scope !== undefined, (q) =>
      q.where((eb) =>
        eb.or([
          eb('provider_instance_id', 'is', null),
          eb('provider_instance_id', '=', (scope as SyncScope).instanceId),
          eb.and([
            eb('expires_at', 'is not', null),
            eb('expires_at', '<=', (scope as SyncScope).othersExpiredBefore),
          ]),
        ]),
      ),
    )
    .orderBy('last_synced_at')
    .orderBy('id')
    .limit(Math.floor(limit))
    .$if(dialect === 'postgresql', (q) => q.forUpdate().skipLocked());
  return db
    .updateTable('browser_sessions')
    .set({ sync_lease_until: leaseUntil })
    .where('id', 'in', due)
    .returningAll();
}
