import { defineEntity, p } from '@mikro-orm/core';

/**
 * One local session's slot of its account's share (`session_shares`): our session id, the account
 * (`ownerId`), the instance running its browser, when it was claimed and the session's deadline.
 * Counted per owner across every instance on the database (`MikroOrmSessionShares`, docs/scaling.md).
 */
export const SessionShareSchema = defineEntity({
  name: 'SessionShare',
  tableName: 'session_shares',
  properties: {
    sessionId: p.text().primary(),
    ownerId: p.text().index(),
    instanceId: p.text().index(),
    createdAt: p.datetime(3),
    expiresAt: p.datetime(3),
  },
});
