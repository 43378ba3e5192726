import type { Clock, RateLimit, RateLimitDecision, RateLimiter } from '@browserdeck/domain';
import { sql } from 'kysely';
import type { SecretBox } from '../secrets/SecretBox.ts';
import type { BrowserdeckOrm } from './BrowserdeckOrm.ts';
import { withDatabaseErrors } from './databaseErrors.ts';
import { RateLimitWindowSchema } from './entities/RateLimitWindowSchema.ts';
import { type KyselyQueries, queriesOf } from './KyselyQueries.ts';
import { pruneExpired } from './pruneExpired.ts';

/** What `MikroOrmRateLimiter` needs. */
export interface MikroOrmRateLimiterDeps {
  orm: BrowserdeckOrm;
  clock: Clock;
  /** Keys are stored as keyed digests: they carry e-mail addresses and client addresses. */
  secrets: SecretBox;
}

/** Whether the stored window ended by the time of the attempt (`excluded` is the attempted row). */
const LAPSED = sql`rate_limit_windows.expires_at <= excluded.window_start`;

/**
 * The conflict's update, one statement, so concurrent attempts from any instance each count
 * exactly once: a new window for a key whose window has expired, else one attempt more in it.
 * (`set` expressions read the row as it was before the update.) Constant fragments, built once.
 */
const NEXT_ATTEMPT = {
  attempts: sql<number>`case when ${LAPSED} then 1 else rate_limit_windows.attempts + 1 end`,
  window_start: sql<Date>`case when ${LAPSED} then excluded.window_start else rate_limit_windows.window_start end`,
  expires_at: sql<Date>`case when ${LAPSED} then excluded.expires_at else rate_limit_windows.expires_at end`,
};

/**
 * `RateLimiter` in the service's database (`rate_limit_windows`): fixed windows shared by every
 * server instance, so several instances enforce one limit together instead of one each. One upsert
 * per attempt; each attempt also deletes up to 100 expired windows. `now` comes from the clock of
 * the instance counting. A key is stored as `secrets.digest` of it, never as the e-mail or address
 * it names.
 */
export class MikroOrmRateLimiter implements RateLimiter {
  private readonly queries: KyselyQueries;
  private readonly deps: MikroOrmRateLimiterDeps;

  constructor(deps: MikroOrmRateLimiterDeps) {
    this.deps = deps;
    this.queries = queriesOf(deps.orm);
  }

  async consume(key: string, rule: RateLimit): Promise<RateLimitDecision> {
    const now = this.deps.clock.now();
    const expiresAt = new Date(now.getTime() + rule.windowSec * 1000);
    const digest = this.deps.secrets.digest(`rate-limit:${key}`);
    const { db } = this.queries;
    const [row] = await withDatabaseErrors(() =>
      this.queries.entities(
        RateLimitWindowSchema,
        db
          .insertInto('rate_limit_windows')
          .values({ key: digest, window_start: now, expires_at: expiresAt, attempts: sql.lit(1) })
          .onConflict((oc) => oc.column('key').doUpdateSet(NEXT_ATTEMPT))
          .returning(['attempts', 'expires_at']),
      ),
    );
    await pruneExpired(this.queries, 'rate_limit_windows', now);
    if (!row) throw new Error('The rate limit upsert returned no row.');
    if (Number(row.attempts) <= rule.limit) return { allowed: true };
    const untilMs = (row.expiresAt as Date).getTime() - now.getTime();
    return { allowed: false, retryAfterSec: Math.max(1, Math.ceil(untilMs / 1000)) };
  }
}
