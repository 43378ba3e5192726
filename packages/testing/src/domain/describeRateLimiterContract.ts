import type { RateLimiter } from '@browserdeck/domain';
import { describe, expect, it } from 'vitest';
import { ManualClock } from './ManualClock.ts';

/** A fresh, empty rate limiter counting time by `clock`. */
export interface RateLimiterFixture {
  limiter: RateLimiter;
}

const RULE = { limit: 3, windowSec: 60 };

/**
 * Behaviour every `RateLimiter` must have: `limit` attempts per key in a fixed window of
 * `windowSec`, then refusals saying how long until the window ends (at least 1 s); a new window
 * after it; keys independent; concurrent attempts each counted once. `create` gives a fresh limiter
 * that reads the time from the clock it is handed.
 */
export function describeRateLimiterContract(
  name: string,
  options: {
    create: (clock: ManualClock) => Promise<RateLimiterFixture>;
    /** For limiters that keep windows in storage: how many they keep, expired included. */
    countRecords?: () => Promise<number>;
  },
): void {
  describe(`RateLimiter contract: ${name}`, () => {
    async function setUp() {
      const clock = new ManualClock('2026-03-03T09:00:00.000Z');
      return { clock, limiter: (await options.create(clock)).limiter };
    }

    it('allows `limit` attempts in a window, then refuses until the window ends', async () => {
      const { clock, limiter } = await setUp();
      for (let i = 0; i < RULE.limit; i++)
        expect(await limiter.consume('k', RULE)).toEqual({ allowed: true });
      clock.advance(20_500);
      expect(await limiter.consume('k', RULE)).toEqual({ allowed: false, retryAfterSec: 40 });
      clock.advance(39_000);
      expect(await limiter.consume('k', RULE)).toEqual({ allowed: false, retryAfterSec: 1 });
      clock.advance(500);
      expect(await limiter.consume('k', RULE)).toEqual({ allowed: true });
    });

    it('starts a fresh window when the last one ended, counting from then', async () => {
      const { clock, limiter } = await setUp();
      for (let i = 0; i < RULE.limit + 2; i++) await limiter.consume('k', RULE);
      clock.advance(61_000);
      for (let i = 0; i < RULE.limit; i++)
        expect(await limiter.consume('k', RULE)).toEqual({ allowed: true });
      clock.advance(1_000);
      expect(await limiter.consume('k', RULE)).toEqual({ allowed: false, retryAfterSec: 59 });
    });

    it('keeps keys apart and honours each rule', async () => {
      const { limiter } = await setUp();
      for (let i = 0; i < RULE.limit; i++) await limiter.consume('a', RULE);
      expect((await limiter.consume('a', RULE)).allowed).toBe(false);
      expect(await limiter.consume('b', RULE)).toEqual({ allowed: true });
      expect(await limiter.consume('c', { limit: 1, windowSec: 10 })).toEqual({ allowed: true });
      expect(await limiter.consume('c', { limit: 1, windowSec: 10 })).toEqual({
        allowed: false,
        retryAfterSec: 10,
      });
    });

    it('counts each of 20 concurrent attempts once', async () => {
      const { limiter } = await setUp();
      const rule = { limit: 7, windowSec: 60 };
      const decisions = await Promise.all(Array.from({ length: 20 }, () => limiter.consume('race', rule)));
      expect(decisions.filter((d) => d.allowed)).toHaveLength(7);
    });

    const count = options.countRecords;
    if (!count) return;
    it('forgets ended windows a bounded number (100) at a time, on attempts', async () => {
      const { clock, limiter } = await setUp();
      for (let i = 0; i < 105; i++) await limiter.consume(`old-${i}`, RULE);
      expect(await count()).toBe(105);
      clock.advance(60_000);
      await limiter.consume('new-1', RULE);
      expect(await count()).toBe(6);
      await limiter.consume('new-2', RULE);
      expect(await count()).toBe(2);
      expect(await limiter.consume('new-1', RULE)).toEqual({ allowed: true });
    });
  });
}
