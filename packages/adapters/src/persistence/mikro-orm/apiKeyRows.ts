import { ApiKey } from '@browserdeck/domain';
import { sqlDate } from './NativeSql.ts';

/** An `api_keys` row as the drivers return it. */
export interface ApiKeyRow {
  id: string;
  project_id: string;
  owner_id: string;
  name: string;
  prefix: string;
  digest: string;
  created_at: unknown;
  expires_at: unknown;
  last_used_at: unknown;
  revoked_at: unknown;
}

/** Every column of `api_keys`, in `ApiKeyRow`'s shape. */
export const SELECT_API_KEY =
  'select id, project_id, owner_id, name, prefix, digest, created_at, expires_at, last_used_at, revoked_at from api_keys';

/** The domain `ApiKey` a row stores (hydrated without its constructor, as MikroORM does). */
export function toApiKey(row: ApiKeyRow): ApiKey {
  return Object.assign(Object.create(ApiKey.prototype) as ApiKey, {
    id: row.id,
    projectId: row.project_id,
    ownerId: row.owner_id,
    name: row.name,
    prefix: row.prefix,
    digest: row.digest,
    createdAt: sqlDate(row.created_at),
    expiresAt: nullableDate(row.expires_at),
    lastUsedAt: nullableDate(row.last_used_at),
    revokedAt: nullableDate(row.revoked_at),
  });
}

function nullableDate(value: unknown): Date | null {
  return value === null || value === undefined ? null : sqlDate(value);
}
