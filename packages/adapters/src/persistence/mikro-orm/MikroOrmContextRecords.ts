import type {
  ContextHolder,
  ContextRecord,
  ContextRecords,
  ContextSave,
} from '../../browsers/shared-state/ContextRecords.ts';
import type { BrowserdeckOrm } from './BrowserdeckOrm.ts';
import { isUuid, withDatabaseErrors } from './databaseErrors.ts';
import { BrowserContextSchema } from './entities/BrowserContextSchema.ts';
import { type KyselyQueries, queriesOf } from './KyselyQueries.ts';

const COLUMNS = [
  'id',
  'project_id',
  'created_at',
  'updated_at',
  'version',
  'size',
  'holder_session_id',
  'holder_instance_id',
  'holder_until',
] as const;

/**
 * `ContextRecords` in the service's database (`browser_contexts`), shared by every instance on it.
 * A hold is one conditional update (`… where holder_session_id is null`), so of two instances taking
 * a context at once exactly one changes the row; letting go matches the holder, so a hold that the
 * instance's loss already ended is not written over. A project id that is not a UUID names none.
 */
export class MikroOrmContextRecords implements ContextRecords {
  private readonly queries: KyselyQueries;

  constructor(deps: { orm: BrowserdeckOrm }) {
    this.queries = queriesOf(deps.orm);
  }

  async create(
    record: { id: string; projectId: string; createdAt: Date },
    maxPerProject: number,
  ): Promise<'created' | 'exists' | 'limit_reached'> {
    if (!isUuid(record.projectId)) throw new Error(`not a project id: ${JSON.stringify(record.projectId)}`);
    const { db } = this.queries;
    const { id, projectId, createdAt } = record;
    // Counted, then added: creates racing in one project may pass the bound by one each, as with folders.
    const [counted] = await withDatabaseErrors(() =>
      this.queries.rows(
        db
          .selectFrom('browser_contexts')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('project_id', '=', projectId),
      ),
    );
    if (Number(counted?.n ?? 0) >= maxPerProject)
      return (await this.get(projectId, id)) ? 'exists' : 'limit_reached';
    const inserted = await withDatabaseErrors(() =>
      this.queries.run(
        db
          .insertInto('browser_contexts')
          .values({
            id,
            project_id: projectId,
            created_at: createdAt,
            updated_at: createdAt,
            version: null,
            size: 0,
            holder_session_id: null,
            holder_instance_id: null,
          })
          .onConflict((oc) => oc.columns(['project_id', 'id']).doNothing()),
      ),
    );
    return inserted > 0 ? 'created' : 'exists';
  }

  async get(projectId: string, id: string): Promise<ContextRecord | null> {
    if (!isUuid(projectId)) return null;
    const { db } = this.queries;
    const [row] = await this.read(
      db
        .selectFrom('browser_contexts')
        .select(COLUMNS)
        .where('project_id', '=', projectId)
        .where('id', '=', id),
    );
    return row ?? null;
  }

  async hold(
    projectId: string,
    id: string,
    holder: ContextHolder,
    now: Date,
  ): Promise<ContextRecord | 'busy' | null> {
    if (!isUuid(projectId)) return null;
    const { db } = this.queries;
    const [held] = await this.read(
      db
        .updateTable('browser_contexts')
        .set({
          holder_session_id: holder.sessionId,
          holder_instance_id: holder.instanceId,
          holder_until: holder.until,
        })
        .where('project_id', '=', projectId)
        .where('id', '=', id)
        .where((eb) => eb.or([eb('holder_session_id', 'is', null), eb('holder_until', '<=', now)]))
        .returning(COLUMNS),
    );
    if (held) return held;
    return (await this.get(projectId, id)) ? 'busy' : null;
  }

  async letGo(
    projectId: string,
    id: string,
    holder: Pick<ContextHolder, 'sessionId' | 'instanceId'>,
    saved: ContextSave | null,
  ): Promise<boolean> {
    const { db } = this.queries;
    const changed = await withDatabaseErrors(() =>
      this.queries.run(
        db
          .updateTable('browser_contexts')
          .set({
            holder_session_id: null,
            holder_instance_id: null,
            holder_until: null,
            ...(saved ? { version: saved.version, size: saved.size, updated_at: saved.updatedAt } : {}),
          })
          .where('project_id', '=', projectId)
          .where('id', '=', id)
          .where('holder_session_id', '=', holder.sessionId)
          .where('holder_instance_id', '=', holder.instanceId),
      ),
    );
    return changed > 0;
  }

  async delete(projectId: string, id: string, now: Date): Promise<ContextRecord | 'busy' | null> {
    if (!isUuid(projectId)) return null;
    const { db } = this.queries;
    const [deleted] = await this.read(
      db
        .deleteFrom('browser_contexts')
        .where('project_id', '=', projectId)
        .where('id', '=', id)
        .where((eb) => eb.or([eb('holder_session_id', 'is', null), eb('holder_until', '<=', now)]))
        .returning(COLUMNS),
    );
    if (deleted) return deleted;
    return (await this.get(projectId, id)) ? 'busy' : null;
  }

  async letGoOfInstance(instanceId: string): Promise<number> {
    const { db } = this.queries;
    return withDatabaseErrors(() =>
      this.queries.run(
        db
          .updateTable('browser_contexts')
          .set({ holder_session_id: null, holder_instance_id: null, holder_until: null })
          .where('holder_instance_id', '=', instanceId),
      ),
    );
  }

  private async read(query: Parameters<KyselyQueries['entities']>[1]): Promise<ContextRecord[]> {
    const rows = await withDatabaseErrors(() => this.queries.entities(BrowserContextSchema, query));
    return rows.map((row) => ({
      id: row.id as string,
      projectId: row.projectId as unknown as string,
      createdAt: row.createdAt as Date,
      updatedAt: row.updatedAt as Date,
      version: (row.version as string | null | undefined) ?? null,
      size: Number(row.size),
      holder:
        row.holderSessionId && row.holderInstanceId && row.holderUntil
          ? {
              sessionId: row.holderSessionId as string,
              instanceId: row.holderInstanceId as string,
              until: row.holderUntil as Date,
            }
          : null,
    }));
  }
}
