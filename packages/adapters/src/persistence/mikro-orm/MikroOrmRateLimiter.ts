import type { Clock, RateLimit, RateLimitDecision, RateLimiter } from '@browserdeck/domain';
import type { BrowserdeckOrm } from './BrowserdeckOrm.ts';
import { withDatabaseErrors } from './databaseErrors.ts';
import { nativeSqlOf, sqlDate } from './NativeSql.ts';

/** What `MikroOrmRateLimiter` needs. */
export interface MikroOrmRateLimiterDeps {
  orm: BrowserdeckOrm;
  clock: Clock;
}

/** Expired windows deleted per attempt at most: pruning stays bounded whatever the backlog. */
export const RATE_LIMIT_WINDOWS_PRUNED_PER_ATTEMPT = 100;

/**
 * Counts one attempt: opens a window for a new key, or for one whose window has expired, else adds
 * to it; answers the count and the window's start. One statement, so concurrent attempts from any
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
const PRUNE =
  'delete from rate_limit_windows where key in (select key from rate_limit_windows ' +
  `where expires_at <= ? limit ${RATE_LIMIT_WINDOWS_PRUNED_PER_ATTEMPT})`;

/**
 * `RateLimiter` in the service's database (`rate_limit_windows`): fixed windows shared by every
 * server instance, so several instances enforce one limit together instead of one each. One upsert
 * per attempt on the driver (NativeSql); each attempt also deletes up to 100 expired windows.
 * `now` comes from the clock of the instance counting.
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
    const row = await withDatabaseErrors(async () => {
      const counted = await sql.one<{ attempts: unknown; expires_at: unknown }>(CONSUME, [
        key,
        now,
        expiresAt,
      ]);
      await sql.run(PRUNE, [now]);
      return counted;
    });
    if (!row) throw new Error('The rate limit upsert returned no row.');
    if (Number(row.attempts) <= rule.limit) return { allowed: true };
    const untilMs = sqlDate(row.expires_at).getTime() - now.getTime();
    return { allowed: false, retryAfterSec: Math.max(1, Math.ceil(untilMs / 1000)) };
  }
}
