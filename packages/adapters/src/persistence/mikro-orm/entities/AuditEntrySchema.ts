import { defineEntity, p } from '@mikro-orm/core';

/** The columns of `audit_entries`, each named once: the Kysely queries are typed from them too. */
const auditEntryProperties = {
  id: p.uuid().primary(),
  // No foreign key: a deleted project's entries (its `project.delete` among them) stay until retention.
  projectId: p.uuid().nullable(),
  at: p.datetime(3),
  actorType: p.text(),
  actorId: p.text().nullable(),
  actorEmail: p.text().nullable(),
  actorName: p.text().nullable(),
  action: p.text(),
  targetType: p.text(),
  targetId: p.text(),
  requestId: p.text().nullable(),
  ip: p.text().nullable(),
};

/**
 * One audit entry (`audit_entries`, SPEC §17), flat: the actor and the target are columns of the
 * row. `MikroOrmAuditLog` maps it to and from the domain's `AuditEntry`.
 */
export const AuditEntrySchema = defineEntity({
  name: 'AuditEntryRow',
  tableName: 'audit_entries',
  properties: auditEntryProperties,
  indexes: [
    // A project's page: `where project_id = ? and (at, id) < (?, ?) order by at desc, id desc`.
    { name: 'audit_entries_project_id_at_index', properties: ['projectId', 'at', 'id'] },
    // The retention sweep: `where at < ?`, over every project and none.
    { name: 'audit_entries_at_index', properties: ['at'] },
  ],
});
