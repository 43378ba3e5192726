import type {
  IssuedRefreshToken,
  IssuedRefreshTokenStore,
} from '../../identity/supabase/IssuedRefreshTokenStore.ts';
import type { BrowserdeckOrm } from './BrowserdeckOrm.ts';
import { withDatabaseErrors } from './databaseErrors.ts';
import { nativeSqlOf } from './NativeSql.ts';
import { pruneExpired } from './pruneExpired.ts';

/** What `MikroOrmIssuedRefreshTokenStore` needs. */
export interface MikroOrmIssuedRefreshTokenStoreDeps {
  orm: BrowserdeckOrm;
}

const REMEMBER =
  'insert into supabase_issued_refresh_tokens (token_hash, session_id, access_token_ttl_sec, expires_at) ' +
  'values (?, ?, ?, ?) on conflict (token_hash) do update set session_id = excluded.session_id, ' +
  'access_token_ttl_sec = excluded.access_token_ttl_sec, expires_at = excluded.expires_at';
const FIND =
  'select session_id, access_token_ttl_sec from supabase_issued_refresh_tokens ' +
  'where token_hash = ? and expires_at > ?';

/**
 * `IssuedRefreshTokenStore` in the service's database (`supabase_issued_refresh_tokens`), shared by
 * every instance, so refresh-token reuse is traced to its session whichever instance issued it.
 * One row per token handed out (sign-in, refresh); each write deletes up to 100 expired rows.
 */
export class MikroOrmIssuedRefreshTokenStore implements IssuedRefreshTokenStore {
  private readonly deps: MikroOrmIssuedRefreshTokenStoreDeps;

  constructor(deps: MikroOrmIssuedRefreshTokenStoreDeps) {
    this.deps = deps;
  }

  async remember(tokenHash: string, issued: IssuedRefreshToken, until: Date, now: Date): Promise<void> {
    // Written on every sign-in and refresh, next to a GoTrue round trip: statements on the driver,
    // like the reads.
    const sql = nativeSqlOf(this.deps.orm);
    await withDatabaseErrors(() =>
      sql.run(REMEMBER, [tokenHash, issued.sessionId, issued.accessTokenTtlSec, until]),
    );
    await pruneExpired(sql, 'supabase_issued_refresh_tokens', 'token_hash', 'expires_at', now);
  }

  async find(tokenHash: string, now: Date): Promise<IssuedRefreshToken | null> {
    const row = await withDatabaseErrors(() =>
      nativeSqlOf(this.deps.orm).one<{ session_id: string; access_token_ttl_sec: unknown }>(FIND, [
        tokenHash,
        now,
      ]),
    );
    return row && { sessionId: row.session_id, accessTokenTtlSec: Number(row.access_token_ttl_sec) };
  }
}
