import { ApiKey } from '@browserdeck/domain';
import { defineEntity, type EntityCtor, p } from '@mikro-orm/core';
import { ProjectSchema } from './ProjectSchema.ts';

/** The columns of `api_keys`, each named once: the Kysely queries are typed from them too. */
const apiKeyProperties = {
  id: p.uuid().primary(),
  projectId: () =>
    p.manyToOne(ProjectSchema).mapToPk().fieldName('project_id').deleteRule('cascade').index(false),
  ownerId: p.uuid(),
  name: p.text(),
  // `developer` or `viewer` (SPEC §17); keys made before roles act as `developer`.
  role: p.text().default('developer'),
  prefix: p.text(),
  digest: p.text(),
  createdAt: p.datetime(3),
  expiresAt: p.datetime(3).nullable(),
  lastUsedAt: p.datetime(3).nullable(),
  revokedAt: p.datetime(3).nullable(),
};

/**
 * Maps the domain `ApiKey` onto `api_keys` (http-api.md §12). `projectId` is a foreign key with
 * `on delete cascade`, so a deleted project takes its keys along; `ownerId` is a plain column (the
 * project's owner when the key was made). Only the clear prefix and the digest of a key are kept.
 */
export const ApiKeySchema = defineEntity<ApiKey, typeof apiKeyProperties>({
  class: ApiKey as unknown as EntityCtor<ApiKey>,
  tableName: 'api_keys',
  properties: apiKeyProperties,
  // Every request with a key looks it up by prefix; the unique index also refuses a clashing prefix.
  uniques: [{ name: 'api_keys_prefix_unique', properties: ['prefix'] }],
  // Listing is `where project_id = ? and revoked_at is null order by created_at desc, id desc`
  // (a backward scan, see ProjectSchema); the index also serves the foreign key's cascade.
  indexes: [{ name: 'api_keys_project_id_created_at_index', properties: ['projectId', 'createdAt', 'id'] }],
});
