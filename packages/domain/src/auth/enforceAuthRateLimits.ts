import { RateLimitedError } from '../shared/DomainError.ts';
import type { RateLimit, RateLimiter } from '../shared/RateLimiter.ts';

/** Consumes one attempt per key; throws `rate_limited` with the longest wait if any key is exhausted. */
export async function enforceRateLimits(
  limiter: RateLimiter,
  attempts: ReadonlyArray<readonly [key: string, rule: RateLimit]>,
): Promise<void> {
  let retryAfterSec = 0;
  for (const [key, rule] of attempts) {
    const decision = await limiter.consume(key, rule);
    if (!decision.allowed) retryAfterSec = Math.max(retryAfterSec, decision.retryAfterSec);
  }
  if (retryAfterSec > 0) throw new RateLimitedError(retryAfterSec);
}
