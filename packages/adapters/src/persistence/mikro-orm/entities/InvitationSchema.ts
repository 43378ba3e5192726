import { Invitation } from '@browserdeck/domain';
import { defineEntity, type EntityCtor, p } from '@mikro-orm/core';
import { ProjectSchema } from './ProjectSchema.ts';

/** The columns of `invitations`, each named once: the Kysely queries are typed from them too. */
const invitationProperties = {
  id: p.uuid().primary(),
  // Null for an operator's invitation to make an account.
  projectId: () =>
    p
      .manyToOne(ProjectSchema)
      .mapToPk()
      .fieldName('project_id')
      .nullable()
      .deleteRule('cascade')
      .index(false),
  email: p.text().index(),
  role: p.text().nullable(),
  digest: p.text(),
  invitedBy: p.uuid(),
  createdAt: p.datetime(3),
  expiresAt: p.datetime(3),
  acceptedAt: p.datetime(3).nullable(),
  acceptedBy: p.uuid().nullable(),
  revokedAt: p.datetime(3).nullable(),
};

/**
 * Maps the domain `Invitation` onto `invitations` (SPEC §17). Only the token's digest is kept,
 * unique (the accept link looks it up). `projectId` is a foreign key with `on delete cascade`: a
 * deleted project takes its invitations along; `invitedBy` and `acceptedBy` are plain user ids.
 */
export const InvitationSchema = defineEntity<Invitation, typeof invitationProperties>({
  class: Invitation as unknown as EntityCtor<Invitation>,
  tableName: 'invitations',
  properties: invitationProperties,
  uniques: [{ name: 'invitations_digest_unique', properties: ['digest'] }],
  // `listOpen` and `countOpen` are `where project_id = ? … order by created_at desc, id desc` (a
  // backward scan, see ProjectSchema); the index also serves the foreign key's cascade.
  indexes: [
    { name: 'invitations_project_id_created_at_index', properties: ['projectId', 'createdAt', 'id'] },
  ],
});
