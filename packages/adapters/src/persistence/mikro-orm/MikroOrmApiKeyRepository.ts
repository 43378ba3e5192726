import { ApiKey, type ApiKeyRepository, type ApiKeyState } from '@browserdeck/domain';
import type { BrowserdeckOrm } from './BrowserdeckOrm.ts';
import { isUuid, withDatabaseErrors } from './databaseErrors.ts';
import { ApiKeySchema } from './entities/ApiKeySchema.ts';
import { PreparedQuery, readEntities } from './PreparedQuery.ts';

/** What `MikroOrmApiKeyRepository` needs. */
export interface MikroOrmApiKeyRepositoryDeps {
  orm: BrowserdeckOrm;
}

const BY_PREFIX = new PreparedQuery<{ prefix: string }>((db, param) =>
  db.selectFrom('api_keys').selectAll().where('prefix', '=', param('prefix')),
);

const LIVE_IN_PROJECT = new PreparedQuery<{ projectId: string }>((db, param) =>
  db
    .selectFrom('api_keys')
    .selectAll()
    .where('projectId', '=', param('projectId'))
    .where('revokedAt', 'is', null)
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc'),
);

const IN_PROJECT = new PreparedQuery<{ id: string; projectId: string }>((db, param) =>
  db
    .selectFrom('api_keys')
    .selectAll()
    .where('id', '=', param('id'))
    .where('projectId', '=', param('projectId')),
);

/**
 * `ApiKeyRepository` on MikroORM (SQLite, PostgreSQL). Nothing is cached: reads are prepared Kysely
 * queries (`PreparedQuery`) straight on the database, with no identity map in between, so a revocation
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
    const rows = await withDatabaseErrors(() => BY_PREFIX.rows(this.deps.orm, { prefix }));
    return this.toApiKeys(rows)[0] ?? null;
  }

  async listInProject(projectId: string): Promise<ApiKey[]> {
    if (!isUuid(projectId)) return [];
    const rows = await withDatabaseErrors(() => LIVE_IN_PROJECT.rows(this.deps.orm, { projectId }));
    return this.toApiKeys(rows);
  }

  async findInProject(projectId: string, keyId: string): Promise<ApiKey | null> {
    if (!isUuid(projectId) || !isUuid(keyId)) return null;
    const rows = await withDatabaseErrors(() => IN_PROJECT.rows(this.deps.orm, { id: keyId, projectId }));
    return this.toApiKeys(rows)[0] ?? null;
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

  private toApiKeys(rows: Record<string, unknown>[]): ApiKey[] {
    return readEntities(this.deps.orm, ApiKeySchema, rows).map((row) => ApiKey.restore(row as ApiKeyState));
  }
}
