import { ApiKey, type ApiKeyRepository, type ApiKeyState } from '@browserdeck/domain';
import type { BrowserdeckOrm } from './BrowserdeckOrm.ts';
import { isUuid, withDatabaseErrors } from './databaseErrors.ts';
import { ApiKeySchema } from './entities/ApiKeySchema.ts';
import { type KyselyQueries, type Query, queriesOf } from './KyselyQueries.ts';
import { Statement } from './Statement.ts';

/** What `MikroOrmApiKeyRepository` needs. */
export interface MikroOrmApiKeyRepositoryDeps {
  orm: BrowserdeckOrm;
}

/** The key a request presents, by its prefix: every key-authenticated request reads it (ADR 0037). */
const BY_PREFIX = new Statement(
  (db, params: { prefix: string }) =>
    db.selectFrom('api_keys').selectAll().where('prefix', '=', params.prefix),
  { prepared: true },
);

/**
 * `ApiKeyRepository` on MikroORM (SQLite, PostgreSQL), through its Kysely integration
 * (`KyselyQueries`). Nothing is cached: every read goes to the database, with no identity map in
 * between, so a revocation holds at once on every instance; `findByPrefix` runs on every request
 * with a key. Writes are single statements; the usage stamp is one conditional UPDATE, never a
 * read-modify-write. A clashing prefix violates `api_keys_prefix_unique`, and that error is thrown.
 */
export class MikroOrmApiKeyRepository implements ApiKeyRepository {
  private readonly queries: KyselyQueries;

  constructor(deps: MikroOrmApiKeyRepositoryDeps) {
    this.queries = queriesOf(deps.orm);
  }

  async add(key: ApiKey): Promise<void> {
    const {
      id,
      projectId,
      ownerId,
      name,
      role,
      prefix,
      digest,
      createdAt,
      expiresAt,
      lastUsedAt,
      revokedAt,
    } = key;
    const { db } = this.queries;
    await withDatabaseErrors(() =>
      this.queries.run(
        db.insertInto('api_keys').values({
          id,
          project_id: projectId,
          owner_id: ownerId,
          name,
          role,
          prefix,
          digest,
          created_at: createdAt,
          expires_at: expiresAt,
          last_used_at: lastUsedAt,
          revoked_at: revokedAt,
        }),
      ),
    );
  }

  async findByPrefix(prefix: string): Promise<ApiKey | null> {
    const [key] = await this.read(BY_PREFIX.query(this.queries, { prefix }));
    return key ?? null;
  }

  async listInProject(projectId: string): Promise<ApiKey[]> {
    if (!isUuid(projectId)) return [];
    const { db } = this.queries;
    return this.read(
      db
        .selectFrom('api_keys')
        .selectAll()
        .where('project_id', '=', projectId)
        .where('revoked_at', 'is', null)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc'),
    );
  }

  async findInProject(projectId: string, keyId: string): Promise<ApiKey | null> {
    if (!isUuid(projectId) || !isUuid(keyId)) return null;
    const { db } = this.queries;
    const [key] = await this.read(
      db.selectFrom('api_keys').selectAll().where('id', '=', keyId).where('project_id', '=', projectId),
    );
    return key ?? null;
  }

  async saveRevocation(key: ApiKey): Promise<void> {
    if (key.revokedAt === null || !isUuid(key.id)) return;
    const { db } = this.queries;
    // A revoked key stays revoked with its first date, however many instances revoke it at once.
    await withDatabaseErrors(() =>
      this.queries.run(
        db
          .updateTable('api_keys')
          .set({ revoked_at: key.revokedAt })
          .where('id', '=', key.id)
          .where('revoked_at', 'is', null),
      ),
    );
  }

  async stampUsage(keyId: string, at: Date, notBefore: Date): Promise<void> {
    if (!isUuid(keyId)) return;
    const { db } = this.queries;
    // One conditional statement: of many instances seeing the key within a minute, one writes.
    await withDatabaseErrors(() =>
      this.queries.run(
        db
          .updateTable('api_keys')
          .set({ last_used_at: at })
          .where('id', '=', keyId)
          .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', notBefore)])),
      ),
    );
  }

  private async read(query: Query): Promise<ApiKey[]> {
    const rows = await withDatabaseErrors(() => this.queries.entities(ApiKeySchema, query));
    return rows.map((row) => ApiKey.restore(row as ApiKeyState));
  }
}
