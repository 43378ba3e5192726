import { Extension, type ExtensionRepository, type ExtensionState } from '@browserdeck/domain';
import type { BrowserdeckOrm } from './BrowserdeckOrm.ts';
import { isUuid, withDatabaseErrors } from './databaseErrors.ts';
import { ExtensionSchema } from './entities/ExtensionSchema.ts';
import { type KyselyQueries, type Query, queriesOf } from './KyselyQueries.ts';

/** What `MikroOrmExtensionRepository` needs. */
export interface MikroOrmExtensionRepositoryDeps {
  orm: BrowserdeckOrm;
}

/** Every column but the zip: what a record is read with. */
const RECORD_COLUMNS = [
  'id',
  'project_id',
  'name',
  'file_name',
  'size',
  'provider_extension_id',
  'created_at',
] as const;

/**
 * `ExtensionRepository` on MikroORM (SQLite, PostgreSQL), through its Kysely integration
 * (`KyselyQueries`). A record is read without its zip (listing never loads megabytes), the zip only
 * when a session loads it. Writes are single statements; an id that is not a UUID is no id of ours
 * and finds nothing (PostgreSQL would refuse to compare it with a `uuid` column).
 */
export class MikroOrmExtensionRepository implements ExtensionRepository {
  private readonly queries: KyselyQueries;

  constructor(deps: MikroOrmExtensionRepositoryDeps) {
    this.queries = queriesOf(deps.orm);
  }

  async add(extension: Extension, archive: Uint8Array): Promise<void> {
    const { id, projectId, name, fileName, size, providerExtensionId, createdAt } = extension;
    const { db } = this.queries;
    const zip = Buffer.from(archive.buffer, archive.byteOffset, archive.byteLength);
    await withDatabaseErrors(() =>
      this.queries.run(
        db.insertInto('extensions').values({
          id,
          project_id: projectId,
          name,
          file_name: fileName,
          size,
          archive: zip,
          provider_extension_id: providerExtensionId,
          created_at: createdAt,
        }),
      ),
    );
  }

  async listInProject(projectId: string): Promise<Extension[]> {
    if (!isUuid(projectId)) return [];
    const { db } = this.queries;
    return this.read(
      db
        .selectFrom('extensions')
        .select(RECORD_COLUMNS)
        .where('project_id', '=', projectId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc'),
    );
  }

  async countInProject(projectId: string): Promise<number> {
    if (!isUuid(projectId)) return 0;
    const { db } = this.queries;
    // Counted on the `(project_id, created_at, id)` index.
    const [row] = await withDatabaseErrors(() =>
      this.queries.rows(
        db
          .selectFrom('extensions')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('project_id', '=', projectId),
      ),
    );
    // PostgreSQL answers a count as a string (bigint).
    return Number(row?.n ?? 0);
  }

  async findInProject(projectId: string, extensionId: string): Promise<Extension | null> {
    if (!isUuid(projectId) || !isUuid(extensionId)) return null;
    const { db } = this.queries;
    const [extension] = await this.read(
      db
        .selectFrom('extensions')
        .select(RECORD_COLUMNS)
        .where('id', '=', extensionId)
        .where('project_id', '=', projectId),
    );
    return extension ?? null;
  }

  async readArchive(projectId: string, extensionId: string): Promise<Uint8Array | null> {
    if (!isUuid(projectId) || !isUuid(extensionId)) return null;
    const { db } = this.queries;
    const [row] = await withDatabaseErrors(() =>
      this.queries.rows(
        db
          .selectFrom('extensions')
          .select('archive')
          .where('id', '=', extensionId)
          .where('project_id', '=', projectId),
      ),
    );
    const archive = row?.archive;
    // better-sqlite3 and pg both answer a Buffer; a copy keeps the caller off the driver's memory.
    return archive instanceof Uint8Array ? new Uint8Array(archive) : null;
  }

  async saveProviderExtensionId(extension: Extension): Promise<void> {
    if (!isUuid(extension.id)) return;
    const { db } = this.queries;
    await withDatabaseErrors(() =>
      this.queries.run(
        db
          .updateTable('extensions')
          .set({ provider_extension_id: extension.providerExtensionId })
          .where('id', '=', extension.id)
          .where('project_id', '=', extension.projectId),
      ),
    );
  }

  async delete(projectId: string, extensionId: string): Promise<boolean> {
    if (!isUuid(projectId) || !isUuid(extensionId)) return false;
    const { db } = this.queries;
    const deleted = await withDatabaseErrors(() =>
      this.queries.run(
        db.deleteFrom('extensions').where('id', '=', extensionId).where('project_id', '=', projectId),
      ),
    );
    return deleted > 0;
  }

  private async read(query: Query): Promise<Extension[]> {
    const rows = await withDatabaseErrors(() => this.queries.entities(ExtensionSchema, query));
    return rows.map((row) => Extension.restore(row as unknown as ExtensionState));
  }
}
