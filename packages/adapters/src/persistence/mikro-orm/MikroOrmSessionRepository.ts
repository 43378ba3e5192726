import {
  ACTIVE_SESSION_STATUSES,
  type BrowserSession,
  emptyStatsSeries,
  type ProxyBytesDelta,
  SESSION_STATUSES,
  type SessionListQuery,
  type SessionPage,
  type SessionRepository,
  type SessionStats,
  type SessionStatus,
  type StatsBucket,
  type StatsSeriesQuery,
  type SyncScope,
} from '@browserdeck/domain';
import { raw } from '@mikro-orm/core';
import type { SecretBox } from '../secrets/SecretBox.ts';
import { type BrowserdeckOrm, dialectOf } from './BrowserdeckOrm.ts';
import { isUuid, withDatabaseErrors } from './databaseErrors.ts';
import { BrowserSessionSchema, type StoredBrowserSession } from './entities/BrowserSessionSchema.ts';
import { nativeSqlOf, type SqlParam } from './NativeSql.ts';
import { readEntities } from './PreparedQuery.ts';
import { querySessionStats } from './querySessionStats.ts';
import { querySessionStatsSeries } from './querySessionStatsSeries.ts';
import { CLAIM_SQL } from './sessionClaimSql.ts';
import { sessionListStatements } from './sessionListStatements.ts';
import { toBrowserSession, toSessionRow } from './sessionRows.ts';
import { COUNT_UPLOAD, INSERT_SESSION, SESSION_IN_PROJECT, UNCOUNT_UPLOAD } from './sessionStatements.ts';
import { sqlTime } from './sqlTime.ts';

/** What `MikroOrmSessionRepository` needs. */
export interface MikroOrmSessionRepositoryDeps {
  orm: BrowserdeckOrm;
  /** Seals each session's `env` and `connectUrl` at rest. */
  secrets: SecretBox;
}

/** The statistics of a project without sessions. */
const NO_SESSIONS: SessionStats = {
  total: 0,
  byStatus: Object.fromEntries(SESSION_STATUSES.map((s) => [s, 0])) as Record<SessionStatus, number>,
  createdLast24h: 0,
  avgDurationSec: 0,
  totalBrowserSec: 0,
  totalProxyBytes: 0,
};

/** The cut-off when the caller gives none: later than any sync. */
const NO_CUT_OFF = new Date('9999-12-31T00:00:00.000Z');

/**
 * `SessionRepository` on MikroORM (SQLite, PostgreSQL). Every call works on its own fork with
 * explicit statements; `env` and `connectUrl` are stored sealed by `secrets`; statistics, also over
 * time, are SQL aggregates; the reconciler's claim is a single `update … returning`.
 */
export class MikroOrmSessionRepository implements SessionRepository {
  private readonly deps: MikroOrmSessionRepositoryDeps;

  constructor(deps: MikroOrmSessionRepositoryDeps) {
    this.deps = deps;
  }

  async add(session: BrowserSession): Promise<void> {
    // A prepared Kysely insert: MikroORM's unit of work cost more than the rest of a create (docs/adr/0002).
    const row = toSessionRow(session, this.deps.secrets);
    await withDatabaseErrors(() => INSERT_SESSION.run(this.deps.orm, row));
  }

  async update(session: BrowserSession): Promise<void> {
    if (!isUuid(session.id) || !isUuid(session.projectId)) return;
    // `metadata` and `proxies` are set at create and never change: not written again. Proxy bytes
    // are raised, never lowered: `addProxyBytes` may have added to them since `session` was read.
    // The upload count is only ever changed in place (`countUpload`).
    const {
      id,
      projectId,
      createdAt,
      metadata: _,
      proxies: __,
      uploadCount: ___,
      proxyBytes,
      ...rest
    } = toSessionRow(session, this.deps.secrets);
    const changes = { ...rest, proxyBytes: raiseProxyBytes(proxyBytes) };
    // Writing the session back ends any sync claim on it (`syncLeaseUntil: null`). A stored terminal
    // status is final: a writer holding an older, still-active copy (a sync racing a release) must
    // not move it back, so the row changes only while it is active or already has the new status.
    const changed = await withDatabaseErrors(() =>
      this.em().nativeUpdate(
        BrowserSessionSchema,
        {
          id,
          projectId,
          $or: [{ status: { $in: [...ACTIVE_SESSION_STATUSES] } }, { status: changes.status }],
        },
        changes,
      ),
    );
    if (changed === 0) {
      await withDatabaseErrors(() =>
        this.em().nativeUpdate(BrowserSessionSchema, { id, projectId }, { syncLeaseUntil: null }),
      );
    }
  }

  async postponeSync(session: BrowserSession, until: Date): Promise<void> {
    if (!isUuid(session.id) || !isUuid(session.projectId)) return;
    await withDatabaseErrors(() =>
      this.em().nativeUpdate(
        BrowserSessionSchema,
        { id: session.id, projectId: session.projectId, status: { $in: [...ACTIVE_SESSION_STATUSES] } },
        { syncLeaseUntil: until },
      ),
    );
  }

  async updateStatus(session: BrowserSession): Promise<void> {
    if (!isUuid(session.id) || !isUuid(session.projectId)) return;
    const { id, projectId, status, endedAt, updatedAt } = session;
    // The same final-status rule as `update`; the claim ends whether or not the row changed.
    const changed = await withDatabaseErrors(() =>
      this.em().nativeUpdate(
        BrowserSessionSchema,
        { id, projectId, $or: [{ status: { $in: [...ACTIVE_SESSION_STATUSES] } }, { status }] },
        { status, endedAt, updatedAt, syncLeaseUntil: null },
      ),
    );
    if (changed === 0) {
      await withDatabaseErrors(() =>
        this.em().nativeUpdate(BrowserSessionSchema, { id, projectId }, { syncLeaseUntil: null }),
      );
    }
  }

  async findInProject(projectId: string, sessionId: string): Promise<BrowserSession | null> {
    if (!isUuid(projectId) || !isUuid(sessionId)) return null;
    const rows = await withDatabaseErrors(() =>
      SESSION_IN_PROJECT.rows(this.deps.orm, { id: sessionId, projectId }),
    );
    const [row] = readEntities(this.deps.orm, BrowserSessionSchema, rows);
    return row ? toBrowserSession(row, this.deps.secrets) : null;
  }

  async list(projectId: string, query: SessionListQuery): Promise<SessionPage> {
    if (!isUuid(projectId)) return { sessions: [], total: 0 };
    // The page and its total are prepared Kysely queries: the list is what dashboards poll, and
    // MikroORM's unit of work and entity hydration cost more than the two index scans.
    const { page, total } = sessionListStatements(this.deps.orm, projectId, query);
    const sql = nativeSqlOf(this.deps.orm);
    const [rows, counted] = await withDatabaseErrors(() =>
      Promise.all([
        sql.all<Record<string, unknown>>(page.sql, page.parameters as SqlParam[]),
        sql.one<{ total: unknown }>(total.sql, total.parameters as SqlParam[]),
      ]),
    );
    return {
      sessions: readEntities(this.deps.orm, BrowserSessionSchema, rows).map((row) =>
        toBrowserSession(row, this.deps.secrets),
      ),
      total: Number(counted?.total ?? 0),
    };
  }

  async stats(projectId: string, now: Date): Promise<SessionStats> {
    if (!isUuid(projectId)) return NO_SESSIONS;
    return withDatabaseErrors(() => querySessionStats(this.deps.orm, projectId, now));
  }

  async statsSeries(projectId: string, query: StatsSeriesQuery): Promise<StatsBucket[]> {
    if (!isUuid(projectId)) return emptyStatsSeries(query);
    return withDatabaseErrors(() => querySessionStatsSeries(this.deps.orm, projectId, query));
  }

  async listActiveInProject(projectId: string): Promise<BrowserSession[]> {
    if (!isUuid(projectId)) return [];
    const rows = await withDatabaseErrors(() =>
      this.em().find(
        BrowserSessionSchema,
        { projectId, status: { $in: [...ACTIVE_SESSION_STATUSES] } },
        { orderBy: { createdAt: 'asc', id: 'asc' } },
      ),
    );
    return rows.map((row) => toBrowserSession(row, this.deps.secrets));
  }

  async listActiveHeldBy(instanceId: string, limit: number): Promise<BrowserSession[]> {
    if (limit <= 0) return [];
    const rows = await withDatabaseErrors(() =>
      this.em().find(
        BrowserSessionSchema,
        { providerInstanceId: instanceId, status: { $in: [...ACTIVE_SESSION_STATUSES] } },
        { orderBy: { createdAt: 'asc', id: 'asc' }, limit: Math.floor(limit) },
      ),
    );
    return rows.map((row) => toBrowserSession(row, this.deps.secrets));
  }

  async claimForSync(
    now: Date,
    leaseUntil: Date,
    limit: number,
    syncedBefore?: Date,
    scope?: SyncScope,
  ): Promise<BrowserSession[]> {
    if (limit <= 0) return [];
    const dialect = dialectOf(this.deps.orm);
    const scopeParams = scope ? [scope.instanceId, sqlTime(dialect, scope.othersExpiredBefore)] : [];
    const rows = await withDatabaseErrors(async () => {
      const em = this.em();
      const raw = await em
        .getConnection()
        .execute<Record<string, unknown>[]>(CLAIM_SQL[dialect][scope ? 'scoped' : 'all'], [
          sqlTime(dialect, leaseUntil),
          sqlTime(dialect, now),
          sqlTime(dialect, syncedBefore ?? NO_CUT_OFF),
          ...scopeParams,
          Math.floor(limit),
        ]);
      return raw.map((r) => em.map(BrowserSessionSchema, r) as StoredBrowserSession);
    });
    // `returning` keeps no order: least recently synced first, as claimed.
    rows.sort((a, b) => a.lastSyncedAt.getTime() - b.lastSyncedAt.getTime() || (a.id < b.id ? -1 : 1));
    return rows.map((row) => toBrowserSession(row, this.deps.secrets));
  }

  async addProxyBytes(deltas: readonly ProxyBytesDelta[]): Promise<ProxyBytesDelta[]> {
    const byId = new Map<string, number>();
    for (const { providerSessionId, bytes } of deltas) {
      if (Number.isSafeInteger(bytes) && bytes > 0)
        byId.set(providerSessionId, (byId.get(providerSessionId) ?? 0) + bytes);
    }
    if (byId.size === 0) return [];
    const dialect = dialectOf(this.deps.orm);
    // One statement, so the increments are stored all together or not at all (the caller keeps
    // them for its next try); each row adds in place, never read and written back. Not prepared:
    // its text varies with the number of deltas.
    const bytes = dialect === 'postgresql' ? '?::bigint' : '?';
    const entries = [...byId];
    const sql = `update browser_sessions set proxy_bytes = proxy_bytes + case provider_session_id
        ${entries.map(() => `when ? then ${bytes}`).join(' ')} else 0 end
      where provider_session_id in (${entries.map(() => '?').join(', ')})
      returning provider_session_id`;
    const params = [...entries.flat(), ...byId.keys()];
    const rows = await withDatabaseErrors(() =>
      this.em().getConnection().execute<Array<{ provider_session_id: string }>>(sql, params),
    );
    const matched = new Set(rows.map((row) => row.provider_session_id));
    return entries
      .filter(([providerSessionId]) => !matched.has(providerSessionId))
      .map(([providerSessionId, total]) => ({ providerSessionId, bytes: total }));
  }

  async countUpload(projectId: string, sessionId: string, max: number): Promise<boolean> {
    if (!isUuid(projectId) || !isUuid(sessionId)) return false;
    const params = { id: sessionId, projectId, max: Math.floor(max) };
    return (await withDatabaseErrors(() => COUNT_UPLOAD.run(this.deps.orm, params))) === 1;
  }

  async uncountUpload(projectId: string, sessionId: string): Promise<void> {
    if (!isUuid(projectId) || !isUuid(sessionId)) return;
    await withDatabaseErrors(() => UNCOUNT_UPLOAD.run(this.deps.orm, { id: sessionId, projectId }));
  }

  private em() {
    return this.deps.orm.em.fork();
  }
}

/** `proxy_bytes` set to `bytes` where that raises it, else left as stored (one expression, both dialects). */
function raiseProxyBytes(bytes: number): number {
  return raw('case when proxy_bytes < ? then ? else proxy_bytes end', [bytes, bytes]) as unknown as number;
}
