import { defineEntity, p } from '@mikro-orm/core';

/**
 * A search for a browser a provider may have started although its create failed without a clear
 * answer (`provider_orphan_searches`, Browserbase today): which look is next and when, and the lease
 * of the instance carrying it out. Kept until the browser is found or the last look is done, so a
 * restart does not forget it (docs/adr/0004-browserbase-provider.md).
 */
export const OrphanSearchSchema = defineEntity({
  name: 'OrphanSearch',
  tableName: 'provider_orphan_searches',
  properties: {
    sessionId: p.text().primary(),
    provider: p.text(),
    providerProjectId: p.text().nullable(),
    attempt: p.integer(),
    nextAt: p.datetime(3).index(),
    leaseUntil: p.datetime(3).nullable(),
    createdAt: p.datetime(3),
  },
});
