import { Project } from '@browserdeck/domain';
import { defineEntity, type EntityCtor, p } from '@mikro-orm/core';
import { UserSchema } from './UserSchema.ts';

/** The columns of `projects`, each named once: the Kysely queries are typed from them too. */
const projectProperties = {
  id: p.uuid().primary(),
  ownerId: () => p.manyToOne(UserSchema).mapToPk().fieldName('owner_id').deleteRule('cascade').index(false),
  name: p.text(),
  slug: p.text(),
  archived: p.boolean(),
  createdAt: p.datetime(3),
  updatedAt: p.datetime(3),
};

/**
 * Maps the domain `Project` onto the `projects` table. The owner is a plain id on the domain side
 * (aggregates reference each other by id) and a foreign key to `users` on the database side.
 */
export const ProjectSchema = defineEntity<Project, typeof projectProperties>({
  class: Project as unknown as EntityCtor<Project>,
  tableName: 'projects',
  properties: projectProperties,
  uniques: [{ name: 'projects_owner_id_slug_unique', properties: ['ownerId', 'slug'] }],
  // Listing is `where owner_id = ? and archived = ? order by created_at desc, id desc`: a backward scan
  // of this ascending index serves it on both dialects, ties included. (An explicit `created_at DESC`
  // key would add nothing, and MikroORM 7.2's SQLite introspection drops DESC, faking schema drift.)
  indexes: [
    {
      name: 'projects_owner_id_archived_created_at_index',
      properties: ['ownerId', 'archived', 'createdAt', 'id'],
    },
  ],
});
