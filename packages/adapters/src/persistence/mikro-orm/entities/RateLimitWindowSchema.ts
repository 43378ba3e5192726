import { defineEntity, p } from '@mikro-orm/core';

/**
 * One fixed window of a rate limit (`rate_limit_windows`): how many attempts `key` made since
 * `windowStart`, until `expiresAt`. Shared by every server instance on the database.
 */
export const RateLimitWindowSchema = defineEntity({
  name: 'RateLimitWindow',
  tableName: 'rate_limit_windows',
  properties: {
    key: p.text().primary(),
    windowStart: p.datetime(3),
    expiresAt: p.datetime(3).index(),
    attempts: p.integer(),
  },
});
