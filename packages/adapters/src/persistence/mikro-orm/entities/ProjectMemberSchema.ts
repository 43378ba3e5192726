import { defineEntity, p } from '@mikro-orm/core';
import { ProjectSchema } from './ProjectSchema.ts';
import { UserSchema } from './UserSchema.ts';

/** The columns of `project_members`, each named once: the Kysely queries are typed from them too. */
const projectMemberProperties = {
  projectId: () =>
    p.manyToOne(ProjectSchema).mapToPk().primary().fieldName('project_id').deleteRule('cascade').index(false),
  // `listForMember` reads a user's memberships: this index serves it and the foreign key's cascade.
  userId: () =>
    p.manyToOne(UserSchema).mapToPk().primary().fieldName('user_id').deleteRule('cascade').index(),
  role: p.text(),
  createdAt: p.datetime(3),
  updatedAt: p.datetime(3),
};

/**
 * A user's role in a project (`project_members`, SPEC §17): the owner's row (`owner`) is written
 * with the project, the others by `MikroOrmMemberRepository`. Keyed by project then user (the key
 * serves a project's list and the lookup behind every request); both are foreign keys with
 * `on delete cascade`. Not mapped onto a domain class: `ProjectMember` is a read joined with `users`.
 */
export const ProjectMemberSchema = defineEntity({
  name: 'ProjectMemberRow',
  tableName: 'project_members',
  properties: projectMemberProperties,
});
