import type { Clock, RateLimit, RateLimitDecision, RateLimiter } from '@browserdeck/domain';
import type { SecretBox } from '../secrets/SecretBox.ts';
import type { BrowserdeckOrm } from './BrowserdeckOrm.ts';
import { withDatabaseErrors } from './databaseErrors.ts';
import { nativeSqlOf, sqlDate } from './NativeSql.ts';
import { pruneExpired } from './pruneExpired.ts';

/** What `MikroOrmRateLimiter` needs. */
export interface MikroOrmRateLimiterDeps {
  orm: BrowserdeckOrm;
  clock: Clock;
  /** Keys are stored as keyed digests: they carry e-mail addresses and client addresses. */
  secrets: SecretBox;
}

/**
 * Counts one attempt: opens a window for a new key, or for one whose window has expired, else adds
 * to it; answers the count and when the window ends. One statement, so concurrent attempts from any
 * instance each count exactly once. (`set` expressions read the row as it was before the update.)
 */
const CONSUME =
  'insert into rate_limit_windows (key, window_start, expires_at, attempts) values (?, ?, ?, 1) ' +
  'on conflict (key) do update set ' +
  'attempts = case when rate_limit_windows.expires_at <= excluded.window_start then 1 ' +
  'else rate_limit_windows.attempts + 1 end, ' +
  'window_start = case when rate_limit_windows.expires_at <= excluded.window_start ' +
  'then excluded.window_start else rate_limit_windows.window_start end, ' +
  'expires_at = case when rate_limit_windows.expires_at <= excluded.window_start ' +
  'then excluded.expires_at else rate_limit_windows.expires_at end ' +
  'returning attempts, expires_at';

/**
 * `RateLimiter` in the service's database (`rate_limit_windows`): fixed windows shared by every
 * server instance, so several instances enforce one limit together instead of one each. One upsert
 * per attempt on the driver (NativeSql); each attempt also deletes up to 100 expired windows.
 * `now` comes from the clock of the instance counting. A key is stored as `secrets.digest` of it,
 * never as the e-mail or address it names.
 */
export class MikroOrmRateLimiter implements RateLimiter {
  private readonly deps: MikroOrmRateLimiterDeps;

  constructor(deps: MikroOrmRateLimiterDeps) {
    this.deps = deps;
  }

  async consume(key: string, rule: RateLimit): Promise<RateLimitDecision> {
    const now = this.deps.clock.now();
    const expiresAt = new Date(now.getTime() + rule.windowSec * 1000);
    const sql = nativeSqlOf(this.deps.orm);
    const digest = this.deps.secrets.digest(`rate-limit:${key}`);
    const row = await withDatabaseErrors(() =>
      sql.one<{ attempts: unknown; expires_at: unknown }>(CONSUME, [digest, now, expiresAt]),
    );
    await pruneExpired(sql, 'rate_limit_windows', 'key', 'expires_at', now);
    if (!row) throw new Error('The rate limit upsert returned no row.');
    if (Number(row.attempts) <= rule.limit) return { allowed: true };
    const untilMs = sqlDate(row.expires_at).getTime() - now.getTime();
    return { allowed: false, retryAfterSec: Math.max(1, Math.ceil(untilMs / 1000)) };
  }
}
