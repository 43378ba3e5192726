import type {
  IssuedRefreshToken,
  IssuedRefreshTokenStore,
} from '../../identity/supabase/IssuedRefreshTokenStore.ts';
import type { BrowserdeckOrm } from './BrowserdeckOrm.ts';
import { withDatabaseErrors } from './databaseErrors.ts';
import { SupabaseIssuedRefreshTokenSchema } from './entities/SupabaseIssuedRefreshTokenSchema.ts';
import { type KyselyQueries, queriesOf } from './KyselyQueries.ts';
import { pruneExpired } from './pruneExpired.ts';

/** What `MikroOrmIssuedRefreshTokenStore` needs. */
export interface MikroOrmIssuedRefreshTokenStoreDeps {
  orm: BrowserdeckOrm;
}

/**
 * `IssuedRefreshTokenStore` in the service's database (`supabase_issued_refresh_tokens`), shared by
 * every instance, so refresh-token reuse is traced to its session whichever instance issued it.
 * One row per token handed out (sign-in, refresh), written once more if handed out again; each
 * write deletes up to 100 expired rows.
 */
export class MikroOrmIssuedRefreshTokenStore implements IssuedRefreshTokenStore {
  private readonly queries: KyselyQueries;

  constructor(deps: MikroOrmIssuedRefreshTokenStoreDeps) {
    this.queries = queriesOf(deps.orm);
  }

  async remember(tokenHash: string, issued: IssuedRefreshToken, until: Date, now: Date): Promise<void> {
    const { sessionId, accessTokenTtlSec } = issued;
    const { db } = this.queries;
    await withDatabaseErrors(() =>
      this.queries.run(
        db
          .insertInto('supabase_issued_refresh_tokens')
          .values({
            token_hash: tokenHash,
            session_id: sessionId,
            access_token_ttl_sec: accessTokenTtlSec,
            expires_at: until,
          })
          .onConflict((oc) =>
            oc.column('token_hash').doUpdateSet((eb) => ({
              session_id: eb.ref('excluded.session_id'),
              access_token_ttl_sec: eb.ref('excluded.access_token_ttl_sec'),
              expires_at: eb.ref('excluded.expires_at'),
            })),
          ),
      ),
    );
    await pruneExpired(this.queries, 'supabase_issued_refresh_tokens', now);
  }

  async find(tokenHash: string, now: Date): Promise<IssuedRefreshToken | null> {
    const { db } = this.queries;
    const [row] = await withDatabaseErrors(() =>
      this.queries.entities(
        SupabaseIssuedRefreshTokenSchema,
        db
          .selectFrom('supabase_issued_refresh_tokens')
          .select(['session_id', 'access_token_ttl_sec'])
          .where('token_hash', '=', tokenHash)
          .where('expires_at', '>', now),
      ),
    );
    return row
      ? { sessionId: row.sessionId as string, accessTokenTtlSec: Number(row.accessTokenTtlSec) }
      : null;
  }
}
