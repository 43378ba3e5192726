import { Extension, type ExtensionRepository, type ExtensionState } from '@browserdeck/domain';
import type { BrowserdeckOrm } from './BrowserdeckOrm.ts';
import { isUuid, withDatabaseErrors } from './databaseErrors.ts';
import { ExtensionSchema } from './entities/ExtensionSchema.ts';
import { PreparedQuery, readEntities } from './PreparedQuery.ts';

/** What `MikroOrmExtensionRepository` needs. */
export interface MikroOrmExtensionRepositoryDeps {
  orm: BrowserdeckOrm;
}

/** Every column but the zip: what a record is read with. */
const RECORD_COLUMNS = [
  'id',
  'projectId',
  'name',
  'fileName',
  'size',
  'providerExtensionId',
  'createdAt',
] as const;

const IN_PROJECT = new PreparedQuery<{ projectId: string }>((db, param) =>
  db
    .selectFrom('extensions')
    .select(RECORD_COLUMNS)
    .where('projectId', '=', param('projectId'))
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc'),
);

/** A project's extensions, counted on the `(project_id, created_at, id)` index. */
const COUNT_IN_PROJECT = new PreparedQuery<{ projectId: string }>((db, param) =>
  db
    .selectFrom('extensions')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('projectId', '=', param('projectId')),
);

const ONE = new PreparedQuery<{ id: string; projectId: string }>((db, param) =>
  db
    .selectFrom('extensions')
    .select(RECORD_COLUMNS)
    .where('id', '=', param('id'))
    .where('projectId', '=', param('projectId')),
);

const ARCHIVE = new PreparedQuery<{ id: string; projectId: string }>((db, param) =>
  db
    .selectFrom('extensions')
    .select('archive')
    .where('id', '=', param('id'))
    .where('projectId', '=', param('projectId')),
);

/**
 * `ExtensionRepository` on MikroORM (SQLite, PostgreSQL). A record is read without its zip (listing
 * never loads megabytes), the zip only when a session loads it. Writes are single statements on a
 * fresh fork; an id that is not a UUID is no id of ours and finds nothing (PostgreSQL would refuse
 * to compare it with a `uuid` column).
 */
export class MikroOrmExtensionRepository implements ExtensionRepository {
  private readonly deps: MikroOrmExtensionRepositoryDeps;

  constructor(deps: MikroOrmExtensionRepositoryDeps) {
    this.deps = deps;
  }

  async add(extension: Extension, archive: Uint8Array): Promise<void> {
    await withDatabaseErrors(() =>
      this.deps.orm.em.fork().insert(ExtensionSchema, {
        id: extension.id,
        projectId: extension.projectId,
        name: extension.name,
        fileName: extension.fileName,
        size: extension.size,
        archive: Buffer.from(archive.buffer, archive.byteOffset, archive.byteLength),
        providerExtensionId: extension.providerExtensionId,
        createdAt: extension.createdAt,
      }),
    );
  }

  async listInProject(projectId: string): Promise<Extension[]> {
    if (!isUuid(projectId)) return [];
    const rows = await withDatabaseErrors(() => IN_PROJECT.rows(this.deps.orm, { projectId }));
    return this.toExtensions(rows);
  }

  async countInProject(projectId: string): Promise<number> {
    if (!isUuid(projectId)) return 0;
    const rows = await withDatabaseErrors(() => COUNT_IN_PROJECT.rows(this.deps.orm, { projectId }));
    // PostgreSQL answers a count as a string (bigint).
    return Number(rows[0]?.n ?? 0);
  }

  async findInProject(projectId: string, extensionId: string): Promise<Extension | null> {
    if (!isUuid(projectId) || !isUuid(extensionId)) return null;
    const rows = await withDatabaseErrors(() => ONE.rows(this.deps.orm, { id: extensionId, projectId }));
    return this.toExtensions(rows)[0] ?? null;
  }

  async readArchive(projectId: string, extensionId: string): Promise<Uint8Array | null> {
    if (!isUuid(projectId) || !isUuid(extensionId)) return null;
    const rows = await withDatabaseErrors(() => ARCHIVE.rows(this.deps.orm, { id: extensionId, projectId }));
    const archive = rows[0]?.archive;
    // better-sqlite3 and pg both answer a Buffer; a copy keeps the caller off the driver's memory.
    return archive instanceof Uint8Array ? new Uint8Array(archive) : null;
  }

  async saveProviderExtensionId(extension: Extension): Promise<void> {
    if (!isUuid(extension.id)) return;
    await withDatabaseErrors(() =>
      this.deps.orm.em
        .fork()
        .nativeUpdate(
          ExtensionSchema,
          { id: extension.id, projectId: extension.projectId },
          { providerExtensionId: extension.providerExtensionId },
        ),
    );
  }

  async delete(projectId: string, extensionId: string): Promise<boolean> {
    if (!isUuid(projectId) || !isUuid(extensionId)) return false;
    const deleted = await withDatabaseErrors(() =>
      this.deps.orm.em.fork().nativeDelete(ExtensionSchema, { id: extensionId, projectId }),
    );
    return deleted > 0;
  }

  private toExtensions(rows: Record<string, unknown>[]): Extension[] {
    return readEntities(this.deps.orm, ExtensionSchema, rows).map((row) =>
      Extension.restore(row as unknown as ExtensionState),
    );
  }
}
