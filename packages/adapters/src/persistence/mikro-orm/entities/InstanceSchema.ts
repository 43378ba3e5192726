import { defineEntity, p } from '@mikro-orm/core';

/**
 * A server instance sharing the database (`instances`): its id (`LOCAL_INSTANCE_ID`, stable per data
 * folder), the internal URL other instances forward its sessions' calls to, the id of its current
 * process (`bootId`, new at every start) and its heartbeat (`seenAt`). Instances whose heartbeat
 * stopped are lost: their sessions are ended (docs/scaling.md).
 */
export const InstanceSchema = defineEntity({
  name: 'Instance',
  tableName: 'instances',
  properties: {
    id: p.text().primary(),
    url: p.text(),
    bootId: p.text(),
    startedAt: p.datetime(3),
    seenAt: p.datetime(3).index(),
  },
});
