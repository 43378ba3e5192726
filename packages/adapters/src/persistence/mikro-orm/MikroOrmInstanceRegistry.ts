import type { InstanceRecord, InstanceRegistry, SessionKey } from '../../instances/InstanceRegistry.ts';
import type { BrowserdeckOrm } from './BrowserdeckOrm.ts';
import { isUuid, withDatabaseErrors } from './databaseErrors.ts';
import { InstanceSchema } from './entities/InstanceSchema.ts';
import { type KyselyQueries, type Query, queriesOf } from './KyselyQueries.ts';

/**
 * `InstanceRegistry` in the service's database (`instances`, and `browser_sessions` for holders):
 * primary-key and indexed lookups, one upsert per start and one update per heartbeat, through
 * MikroORM's Kysely integration (`KyselyQueries`).
 */
export class MikroOrmInstanceRegistry implements InstanceRegistry {
  private readonly queries: KyselyQueries;

  constructor(deps: { orm: BrowserdeckOrm }) {
    this.queries = queriesOf(deps.orm);
  }

  async register(record: InstanceRecord): Promise<void> {
    const { id, url, bootId, startedAt, seenAt } = record;
    const { db } = this.queries;
    await withDatabaseErrors(() =>
      this.queries.run(
        db
          .insertInto('instances')
          .values({ id, url, boot_id: bootId, started_at: startedAt, seen_at: seenAt })
          .onConflict((oc) =>
            oc.column('id').doUpdateSet((eb) => ({
              url: eb.ref('excluded.url'),
              boot_id: eb.ref('excluded.boot_id'),
              started_at: eb.ref('excluded.started_at'),
              seen_at: eb.ref('excluded.seen_at'),
            })),
          ),
      ),
    );
  }

  async heartbeat(id: string, bootId: string, now: Date): Promise<boolean> {
    const { db } = this.queries;
    const changed = await withDatabaseErrors(() =>
      this.queries.run(
        db.updateTable('instances').set({ seen_at: now }).where('id', '=', id).where('boot_id', '=', bootId),
      ),
    );
    return changed > 0;
  }

  async find(id: string): Promise<InstanceRecord | null> {
    const { db } = this.queries;
    const [record] = await this.read(db.selectFrom('instances').selectAll().where('id', '=', id));
    return record ?? null;
  }

  listSilentSince(before: Date, limit: number): Promise<InstanceRecord[]> {
    const { db } = this.queries;
    return this.read(
      db
        .selectFrom('instances')
        .selectAll()
        .where('seen_at', '<', before)
        .orderBy('seen_at')
        .limit(Math.floor(limit)),
    );
  }

  async remove(id: string, bootId: string): Promise<void> {
    const { db } = this.queries;
    await withDatabaseErrors(() =>
      this.queries.run(db.deleteFrom('instances').where('id', '=', id).where('boot_id', '=', bootId)),
    );
  }

  async holderOf(key: SessionKey): Promise<string | null | undefined> {
    if ('sessionId' in key && !isUuid(key.sessionId)) return undefined;
    const { db } = this.queries;
    const holder = db.selectFrom('browser_sessions').select('provider_instance_id as holder');
    const [row] = await withDatabaseErrors(() =>
      this.queries.rows(
        'sessionId' in key
          ? holder.where('id', '=', key.sessionId.toLowerCase())
          : holder.where('provider_session_id', '=', key.providerSessionId).limit(1),
      ),
    );
    return row ? ((row.holder as string | null) ?? null) : undefined;
  }

  private async read(query: Query): Promise<InstanceRecord[]> {
    const rows = await withDatabaseErrors(() => this.queries.entities(InstanceSchema, query));
    return rows.map((row) => ({
      id: row.id as string,
      url: row.url as string,
      bootId: row.bootId as string,
      startedAt: row.startedAt as Date,
      seenAt: row.seenAt as Date,
    }));
  }
}
