import type { InstanceRecord, InstanceRegistry, SessionKey } from '../../instances/InstanceRegistry.ts';
import type { BrowserdeckOrm } from './BrowserdeckOrm.ts';
import { isUuid, withDatabaseErrors } from './databaseErrors.ts';
import { nativeSqlOf, sqlDate } from './NativeSql.ts';

const REGISTER =
  'insert into instances (id, url, boot_id, started_at, seen_at) values (?, ?, ?, ?, ?) ' +
  'on conflict (id) do update set url = excluded.url, boot_id = excluded.boot_id, ' +
  'started_at = excluded.started_at, seen_at = excluded.seen_at';
const HEARTBEAT = 'update instances set seen_at = ? where id = ? and boot_id = ?';
const FIND = 'select id, url, boot_id, started_at, seen_at from instances where id = ?';
const SILENT =
  'select id, url, boot_id, started_at, seen_at from instances where seen_at < ? order by seen_at limit ?';
const REMOVE = 'delete from instances where id = ? and boot_id = ?';
const HOLDER_BY_ID = 'select provider_instance_id as holder from browser_sessions where id = ?';
const HOLDER_BY_PROVIDER_ID =
  'select provider_instance_id as holder from browser_sessions where provider_session_id = ? limit 1';

interface InstanceRow {
  id: string;
  url: string;
  boot_id: string;
  started_at: unknown;
  seen_at: unknown;
}

/**
 * `InstanceRegistry` in the service's database (`instances`, and `browser_sessions` for holders):
 * primary-key and indexed lookups on the driver (NativeSql), one upsert per start and one update per
 * heartbeat.
 */
export class MikroOrmInstanceRegistry implements InstanceRegistry {
  private readonly orm: BrowserdeckOrm;

  constructor(deps: { orm: BrowserdeckOrm }) {
    this.orm = deps.orm;
  }

  async register(record: InstanceRecord): Promise<void> {
    const { id, url, bootId, startedAt, seenAt } = record;
    await withDatabaseErrors(() => nativeSqlOf(this.orm).run(REGISTER, [id, url, bootId, startedAt, seenAt]));
  }

  async heartbeat(id: string, bootId: string, now: Date): Promise<boolean> {
    const changed = await withDatabaseErrors(() => nativeSqlOf(this.orm).run(HEARTBEAT, [now, id, bootId]));
    return changed > 0;
  }

  async find(id: string): Promise<InstanceRecord | null> {
    const row = await withDatabaseErrors(() => nativeSqlOf(this.orm).one<InstanceRow>(FIND, [id]));
    return row ? toRecord(row) : null;
  }

  async listSilentSince(before: Date, limit: number): Promise<InstanceRecord[]> {
    const rows = await withDatabaseErrors(() =>
      nativeSqlOf(this.orm).all<InstanceRow>(SILENT, [before, Math.floor(limit)]),
    );
    return rows.map(toRecord);
  }

  async remove(id: string, bootId: string): Promise<void> {
    await withDatabaseErrors(() => nativeSqlOf(this.orm).run(REMOVE, [id, bootId]));
  }

  async holderOf(key: SessionKey): Promise<string | null | undefined> {
    const sql = nativeSqlOf(this.orm);
    const row = await withDatabaseErrors(() =>
      'sessionId' in key
        ? isUuid(key.sessionId)
          ? sql.one<{ holder: string | null }>(HOLDER_BY_ID, [key.sessionId.toLowerCase()])
          : Promise.resolve(null)
        : sql.one<{ holder: string | null }>(HOLDER_BY_PROVIDER_ID, [key.providerSessionId]),
    );
    return row ? row.holder : undefined;
  }
}

function toRecord(row: InstanceRow): InstanceRecord {
  return {
    id: row.id,
    url: row.url,
    bootId: row.boot_id,
    startedAt: sqlDate(row.started_at),
    seenAt: sqlDate(row.seen_at),
  };
}
