import type { RevokedSessionStore } from '../../identity/supabase/RevokedSessionStore.ts';
import type { BrowserdeckOrm } from './BrowserdeckOrm.ts';
import { withDatabaseErrors } from './databaseErrors.ts';
import { nativeSqlOf } from './NativeSql.ts';
import { pruneExpired } from './pruneExpired.ts';

/** What `MikroOrmRevokedSessionStore` needs. */
export interface MikroOrmRevokedSessionStoreDeps {
  orm: BrowserdeckOrm;
}

const REVOKE =
  'insert into supabase_revoked_sessions (session_id, revoked_until) values (?, ?) ' +
  'on conflict (session_id) do update set revoked_until = excluded.revoked_until ' +
  'where supabase_revoked_sessions.revoked_until < excluded.revoked_until';
const IS_REVOKED =
  'select 1 as revoked from supabase_revoked_sessions where session_id = ? and revoked_until > ?';

/**
 * `RevokedSessionStore` in the service's database (`supabase_revoked_sessions`), shared by every
 * instance. `isRevoked` runs on every authenticated request: one primary-key lookup on the driver
 * (NativeSql). A revocation is one upsert that only ever moves `revoked_until` later, so concurrent
 * sign-outs of one session keep the latest; each write also deletes up to 100 expired rows.
 */
export class MikroOrmRevokedSessionStore implements RevokedSessionStore {
  private readonly deps: MikroOrmRevokedSessionStoreDeps;

  constructor(deps: MikroOrmRevokedSessionStoreDeps) {
    this.deps = deps;
  }

  async revoke(sessionId: string, until: Date, now: Date): Promise<void> {
    // Upsert-if-later is no MikroORM operation: hand-written, on the driver.
    const sql = nativeSqlOf(this.deps.orm);
    await withDatabaseErrors(() => sql.run(REVOKE, [sessionId, until]));
    await pruneExpired(sql, 'supabase_revoked_sessions', 'session_id', 'revoked_until', now);
  }

  async isRevoked(sessionId: string, now: Date): Promise<boolean> {
    const row = await withDatabaseErrors(() => nativeSqlOf(this.deps.orm).one(IS_REVOKED, [sessionId, now]));
    return row !== null;
  }
}
