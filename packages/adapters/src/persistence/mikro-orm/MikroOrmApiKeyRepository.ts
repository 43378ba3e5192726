import type { ApiKey, ApiKeyRepository } from '@browserdeck/domain';
import { type ApiKeyRow, SELECT_API_KEY, toApiKey } from './apiKeyRows.ts';
import type { BrowserdeckOrm } from './BrowserdeckOrm.ts';
import { isUuid, withDatabaseErrors } from './databaseErrors.ts';
import { ApiKeySchema } from './entities/ApiKeySchema.ts';
import { nativeSqlOf } from './NativeSql.ts';

/** What `MikroOrmApiKeyRepository` needs. */
export interface MikroOrmApiKeyRepositoryDeps {
  orm: BrowserdeckOrm;
}

/**
 * `ApiKeyRepository` on MikroORM (SQLite, PostgreSQL). Nothing is cached: reads are hand-written
 * statements (NativeSql) straight on the database, with no identity map in between, so a revocation
 * holds at once on every instance; `findByPrefix` runs on every request with a key. Writes are
 * single statements on a fresh fork; the usage stamp is one conditional UPDATE, never a
 * read-modify-write. A clashing prefix violates `api_keys_prefix_unique`, and that error is thrown.
 */
export class MikroOrmApiKeyRepository implements ApiKeyRepository {
  private readonly deps: MikroOrmApiKeyRepositoryDeps;

  constructor(deps: MikroOrmApiKeyRepositoryDeps) {
    this.deps = deps;
  }

  async add(key: ApiKey): Promise<void> {
    await withDatabaseErrors(() =>
      this.deps.orm.em.fork().insert(ApiKeySchema, {
        id: key.id,
        projectId: key.projectId,
        ownerId: key.ownerId,
        name: key.name,
        prefix: key.prefix,
        digest: key.digest,
        createdAt: key.createdAt,
        expiresAt: key.expiresAt,
        lastUsedAt: key.lastUsedAt,
        revokedAt: key.revokedAt,
      }),
    );
  }

  async findByPrefix(prefix: string): Promise<ApiKey | null> {
    const row = await withDatabaseErrors(() =>
      nativeSqlOf(this.deps.orm).one<ApiKeyRow>(`${SELECT_API_KEY} where prefix = ?`, [prefix]),
    );
    return row && toApiKey(row);
  }

  async listInProject(projectId: string): Promise<ApiKey[]> {
    if (!isUuid(projectId)) return [];
    const rows = await withDatabaseErrors(() =>
      nativeSqlOf(this.deps.orm).all<ApiKeyRow>(
        `${SELECT_API_KEY} where project_id = ? and revoked_at is null order by created_at desc, id desc`,
        [projectId],
      ),
    );
    return rows.map(toApiKey);
  }

  async findInProject(projectId: string, keyId: string): Promise<ApiKey | null> {
    if (!isUuid(projectId) || !isUuid(keyId)) return null;
    const row = await withDatabaseErrors(() =>
      nativeSqlOf(this.deps.orm).one<ApiKeyRow>(`${SELECT_API_KEY} where id = ? and project_id = ?`, [
        keyId,
        projectId,
      ]),
    );
    return row && toApiKey(row);
  }

  async saveRevocation(key: ApiKey): Promise<void> {
    if (key.revokedAt === null || !isUuid(key.id)) return;
    // A revoked key stays revoked with its first date, however many instances revoke it at once.
    await withDatabaseErrors(() =>
      this.deps.orm.em
        .fork()
        .nativeUpdate(ApiKeySchema, { id: key.id, revokedAt: null }, { revokedAt: key.revokedAt }),
    );
  }

  async stampUsage(keyId: string, at: Date, notBefore: Date): Promise<void> {
    if (!isUuid(keyId)) return;
    // One conditional statement: of many instances seeing the key within a minute, one writes.
    await withDatabaseErrors(() =>
      this.deps.orm.em
        .fork()
        .nativeUpdate(
          ApiKeySchema,
          { id: keyId, $or: [{ lastUsedAt: null }, { lastUsedAt: { $lt: notBefore } }] },
          { lastUsedAt: at },
        ),
    );
  }
}
