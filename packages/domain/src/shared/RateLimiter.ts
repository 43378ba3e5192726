/** The outcome of one attempt against a rate limit. */
export type RateLimitDecision = { allowed: true } | { allowed: false; retryAfterSec: number };

/** A named limit: at most `limit` attempts per `windowSec`. */
export interface RateLimit {
  limit: number;
  windowSec: number;
}

/** Counts attempts per key in fixed windows. */
export interface RateLimiter {
  /** Records one attempt under `key` and says whether it is within `rule`. */
  consume(key: string, rule: RateLimit): Promise<RateLimitDecision>;
}
