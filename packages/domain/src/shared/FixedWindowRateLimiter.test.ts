import { describeRateLimiterContract } from '../testing/describeRateLimiterContract.ts';
import { FixedWindowRateLimiter } from './FixedWindowRateLimiter.ts';

describeRateLimiterContract('FixedWindowRateLimiter (in memory)', {
  create: async (clock) => ({ limiter: new FixedWindowRateLimiter({ clock }) }),
});
