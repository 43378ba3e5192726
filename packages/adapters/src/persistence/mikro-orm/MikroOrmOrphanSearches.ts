import type { OrphanSearch, OrphanSearches } from '../../browsers/orphans/OrphanSearches.ts';
import type { BrowserdeckOrm, DatabaseDialect } from './BrowserdeckOrm.ts';
import { withDatabaseErrors } from './databaseErrors.ts';
import { nativeSqlOf, sqlDate } from './NativeSql.ts';

const COLUMNS = 'session_id, provider, provider_project_id, attempt, next_at, created_at';
const ADD =
  `insert into provider_orphan_searches (${COLUMNS}, lease_until) values (?, ?, ?, ?, ?, ?, null) ` +
  'on conflict (session_id) do nothing';
const RESCHEDULE =
  'update provider_orphan_searches set attempt = ?, next_at = ?, lease_until = null where session_id = ?';
const REMOVE = 'delete from provider_orphan_searches where session_id = ?';

/**
 * The claim, one statement: `update … where session_id in (select … limit … for update skip locked)
 * returning …`. On PostgreSQL concurrent claimers skip each other's locked rows; SQLite serializes
 * writers, so the plain statement is already exclusive. Parameters: lease end, provider, now (due),
 * now (lease ended), limit.
 */
function claimSql(dialect: DatabaseDialect): string {
  return `update provider_orphan_searches set lease_until = ? where session_id in (
      select session_id from provider_orphan_searches
      where provider = ? and next_at <= ? and (lease_until is null or lease_until <= ?)
      order by next_at, session_id limit ?${dialect === 'postgresql' ? ' for update skip locked' : ''})
    returning ${COLUMNS}`;
}

const CLAIM = { sqlite: claimSql('sqlite'), postgresql: claimSql('postgresql') } as const;

interface OrphanSearchRow {
  session_id: string;
  provider: string;
  provider_project_id: string | null;
  attempt: number | string;
  next_at: unknown;
  created_at: unknown;
}

/**
 * `OrphanSearches` in the service's database (`provider_orphan_searches`), so the search for a
 * browser left by a failed create survives a restart and any instance with the provider carries it
 * on. Hand-written statements on the driver (NativeSql); the claim leases rows like the reconciler's.
 */
export class MikroOrmOrphanSearches implements OrphanSearches {
  private readonly orm: BrowserdeckOrm;

  constructor(deps: { orm: BrowserdeckOrm }) {
    this.orm = deps.orm;
  }

  async add(search: OrphanSearch): Promise<void> {
    const { sessionId, provider, providerProjectId, attempt, nextAt, createdAt } = search;
    await withDatabaseErrors(() =>
      nativeSqlOf(this.orm).run(ADD, [sessionId, provider, providerProjectId, attempt, nextAt, createdAt]),
    );
  }

  async claimDue(provider: string, now: Date, leaseUntil: Date, limit: number): Promise<OrphanSearch[]> {
    if (limit <= 0) return [];
    const sql = nativeSqlOf(this.orm);
    const rows = await withDatabaseErrors(() =>
      sql.all<OrphanSearchRow>(CLAIM[sql.dialect], [leaseUntil, provider, now, now, Math.floor(limit)]),
    );
    // `returning` keeps no order: earliest due first, as claimed.
    return rows
      .map(toSearch)
      .sort((a, b) => a.nextAt.getTime() - b.nextAt.getTime() || (a.sessionId < b.sessionId ? -1 : 1));
  }

  async reschedule(sessionId: string, attempt: number, nextAt: Date): Promise<void> {
    await withDatabaseErrors(() => nativeSqlOf(this.orm).run(RESCHEDULE, [attempt, nextAt, sessionId]));
  }

  async remove(sessionId: string): Promise<void> {
    await withDatabaseErrors(() => nativeSqlOf(this.orm).run(REMOVE, [sessionId]));
  }
}

function toSearch(row: OrphanSearchRow): OrphanSearch {
  return {
    sessionId: row.session_id,
    provider: row.provider,
    providerProjectId: row.provider_project_id,
    attempt: Number(row.attempt),
    nextAt: sqlDate(row.next_at),
    createdAt: sqlDate(row.created_at),
  };
}
