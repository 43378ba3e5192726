import type { RevokedSessionStore } from '../../identity/supabase/RevokedSessionStore.ts';
import type { BrowserdeckOrm } from './BrowserdeckOrm.ts';
import { withDatabaseErrors } from './databaseErrors.ts';
import { type KyselyQueries, queriesOf } from './KyselyQueries.ts';
import { pruneExpired } from './pruneExpired.ts';

/** What `MikroOrmRevokedSessionStore` needs. */
export interface MikroOrmRevokedSessionStoreDeps {
  orm: BrowserdeckOrm;
}

/**
 * `RevokedSessionStore` in the service's database (`supabase_revoked_sessions`), shared by every
 * instance. `isRevoked` runs on every authenticated request: one primary-key lookup. A revocation
 * is one upsert that only ever moves `revoked_until` later, so concurrent sign-outs of one session
 * keep the latest; each write also deletes up to 100 expired rows.
 */
export class MikroOrmRevokedSessionStore implements RevokedSessionStore {
  private readonly queries: KyselyQueries;

  constructor(deps: MikroOrmRevokedSessionStoreDeps) {
    this.queries = queriesOf(deps.orm);
  }

  async revoke(sessionId: string, until: Date, now: Date): Promise<void> {
    const { db } = this.queries;
    await withDatabaseErrors(() =>
      this.queries.run(
        db
          .insertInto('supabase_revoked_sessions')
          .values({ session_id: sessionId, revoked_until: until })
          .onConflict((oc) =>
            oc
              .column('session_id')
              .doUpdateSet((eb) => ({ revoked_until: eb.ref('excluded.revoked_until') }))
              .where('supabase_revoked_sessions.revoked_until', '<', (eb) =>
                eb.ref('excluded.revoked_until'),
              ),
          ),
      ),
    );
    await pruneExpired(this.queries, 'supabase_revoked_sessions', now);
  }

  async isRevoked(sessionId: string, now: Date): Promise<boolean> {
    const { db } = this.queries;
    const rows = await withDatabaseErrors(() =>
      this.queries.rows(
        db
          .selectFrom('supabase_revoked_sessions')
          .select('session_id')
          .where('session_id', '=', sessionId)
          .where('revoked_until', '>', now),
      ),
    );
    return rows.length > 0;
  }
}
