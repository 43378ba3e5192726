import type { Clock } from './Clock.ts';
import type { RateLimit, RateLimitDecision, RateLimiter } from './RateLimiter.ts';

/** What FixedWindowRateLimiter needs. */
export interface FixedWindowRateLimiterDeps {
  clock: Clock;
}

/**
 * Counts attempts in fixed windows in this process's memory. Good for one instance; several
 * instances each count their own share (see docs/decisions.md).
 */
export class FixedWindowRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, { startMs: number; count: number }>();
  private lastSweepMs = 0;

  private readonly deps: FixedWindowRateLimiterDeps;

  constructor(deps: FixedWindowRateLimiterDeps) {
    this.deps = deps;
  }

  async consume(key: string, rule: RateLimit): Promise<RateLimitDecision> {
    const nowMs = this.deps.clock.now().getTime();
    const windowMs = rule.windowSec * 1000;
    this.sweep(nowMs, windowMs);
    let window = this.windows.get(key);
    if (!window || nowMs - window.startMs >= windowMs) {
      window = { startMs: nowMs, count: 0 };
      this.windows.set(key, window);
    }
    window.count++;
    if (window.count <= rule.limit) return { allowed: true };
    return {
      allowed: false,
      retryAfterSec: Math.max(1, Math.ceil((window.startMs + windowMs - nowMs) / 1000)),
    };
  }

  /** Drops expired windows now and then, so memory stays bounded by recent keys. */
  private sweep(nowMs: number, windowMs: number): void {
    if (nowMs - this.lastSweepMs < windowMs) return;
    this.lastSweepMs = nowMs;
    for (const [key, window] of this.windows) {
      if (nowMs - window.startMs >= windowMs) this.windows.delete(key);
    }
  }
}
