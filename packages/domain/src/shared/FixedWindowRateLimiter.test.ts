import { describeRateLimiterContract } from '@browserdeck/testing';
import { FixedWindowRateLimiter } from './FixedWindowRateLimiter.ts';

describeRateLimiterContract('FixedWindowRateLimiter (in memory)', {
  create: async (clock) => ({ limiter: new FixedWindowRateLimiter({ clock }) }),
});
