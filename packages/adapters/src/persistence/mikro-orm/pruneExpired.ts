import { type Kysely, sql } from 'kysely';
import type { KyselyQueries } from './KyselyQueries.ts';
import type { BrowserdeckDb } from './kyselyDatabase.ts';

/** Expired rows one write deletes at most: pruning stays bounded whatever the backlog. */
export const PRUNED_PER_WRITE = 100;

/** The tables with expiring rows: each one's key and expiry properties. */
const EXPIRING = {
  rate_limit_windows: { key: 'key', expires: 'expires_at' },
  supabase_revoked_sessions: { key: 'session_id', expires: 'revoked_until' },
  supabase_issued_refresh_tokens: { key: 'token_hash', expires: 'expires_at' },
} as const satisfies {
  [T in keyof BrowserdeckDb]?: { key: keyof BrowserdeckDb[T]; expires: keyof BrowserdeckDb[T] };
};

/** One of the tables of `EXPIRING`. */
export type ExpiringTable = keyof typeof EXPIRING;

/** The shape every expiring table shares here: a key and an expiry. */
type ExpiringDb = Record<ExpiringTable, Record<string, unknown>>;

/**
 * Deletes up to `PRUNED_PER_WRITE` rows of `table` whose expiry is at or before `now`: the
 * housekeeping the stores with expiring rows do after each write. Best-effort: the write it follows
 * has already happened, so a failure here is swallowed (the next write prunes again) and never
 * fails the caller. On PostgreSQL the rows are taken `for update skip locked`, so instances pruning
 * at once never wait on (or deadlock with) each other; SQLite has no row locks (its writers take turns).
 */
export async function pruneExpired(queries: KyselyQueries, table: ExpiringTable, now: Date): Promise<void> {
  const { key, expires } = EXPIRING[table];
  // One statement for three tables: typed through `EXPIRING` above rather than per table.
  const db = queries.db as unknown as Kysely<ExpiringDb>;
  const expired = db
    .selectFrom(table)
    .select(key)
    .where(expires, '<=', now)
    // A literal: SQLite plans `limit ?` slower (16 µs against 7 per prune, measured).
    .limit(sql.lit(PRUNED_PER_WRITE))
    .$if(queries.dialect === 'postgresql', (q) => q.forUpdate().skipLocked());
  await queries.run(db.deleteFrom(table).where(key, 'in', expired)).catch(() => {});
}
