import { defineEntity, p } from '@mikro-orm/core';
import { ProjectSchema } from './ProjectSchema.ts';

/** The columns of `extensions`, each named once: the Kysely queries are typed from them too. */
const extensionProperties = {
  id: p.uuid().primary(),
  projectId: () =>
    p.manyToOne(ProjectSchema).mapToPk().fieldName('project_id').deleteRule('cascade').index(false),
  name: p.text(),
  fileName: p.text(),
  size: p.integer(),
  // The zip as uploaded (at most EXTENSION_ARCHIVE_MAX_BYTES): a blob on SQLite, bytea on PostgreSQL.
  archive: p.blob(),
  providerExtensionId: p.text().nullable(),
  createdAt: p.datetime(3),
};

/**
 * A project's uploaded extension and its zip (`extensions`, http-api.md §5, §13). Not mapped onto
 * the domain `Extension`, which does not carry the zip: `MikroOrmExtensionRepository` reads the
 * record without the zip and the zip alone, each with its own query. `projectId` is a foreign key
 * with `on delete cascade`: a deleted project takes its extensions along.
 */
export const ExtensionSchema = defineEntity({
  name: 'StoredExtension',
  tableName: 'extensions',
  properties: extensionProperties,
  // Listing is `where project_id = ? order by created_at desc, id desc` (a backward scan, see
  // ProjectSchema); the index also serves the foreign key's cascade.
  indexes: [{ name: 'extensions_project_id_created_at_index', properties: ['projectId', 'createdAt', 'id'] }],
});
