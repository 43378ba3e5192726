import {
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
import type { Insertable } from 'kysely';
import type { SecretBox } from '../secrets/SecretBox.ts';
import type { BrowserdeckOrm } from './BrowserdeckOrm.ts';
import { isUuid, withDatabaseErrors } from './databaseErrors.ts';
import { BrowserSessionSchema, type StoredBrowserSession } from './entities/BrowserSessionSchema.ts';
import { type KyselyQueries, type Query, queriesOf } from './KyselyQueries.ts';
import type { BrowserdeckDb } from './kyselyDatabase.ts';
import { querySessionStats } from './querySessionStats.ts';
import { querySessionStatsSeries } from './querySessionStatsSeries.ts';
import { claimForSyncQuery } from './sessionClaimSql.ts';
import { sessionListQueries } from './sessionListStatements.ts';
import { toBrowserSession, toSessionRow } from './sessionRows.ts';
import {
  ACTIVE_HELD_BY,
  ACTIVE_IN_PROJECT,
  ADD_PROXY_BYTES,
  COUNT_UPLOAD,
  END_CLAIM,
  POSTPONE_SYNC,
  SESSION_IN_PROJECT,
  type SessionChanges,
  UNCOUNT_UPLOAD,
  UPDATE_SESSION,
  UPDATE_STATUS,
} from './sessionStatements.ts';

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
 * `SessionRepository` on MikroORM (SQLite, PostgreSQL), through its Kysely integration
 * (`KyselyQueries`): one statement per write; `env`, `proxies` and `connectUrl` are stored sealed by
 * `secrets`; statistics, also over time, are SQL aggregates; the reconciler's claim is a single
 * `update … returning`.
 */
export class MikroOrmSessionRepository implements SessionRepository {
  private readonly queries: KyselyQueries;
  private readonly secrets: SecretBox;

  constructor(deps: MikroOrmSessionRepositoryDeps) {
    this.queries = queriesOf(deps.orm);
    this.secrets = deps.secrets;
  }

  async add(session: BrowserSession): Promise<void> {
    const row = this.queries.columns(BrowserSessionSchema, toSessionRow(session, this.secrets));
    const { db } = this.queries;
    const insert = db
      .insertInto('browser_sessions')
      .values(row as Insertable<BrowserdeckDb['browser_sessions']>);
    await withDatabaseErrors(() => this.queries.run(insert));
  }

  async update(session: BrowserSession): Promise<void> {
    if (!isUuid(session.id) || !isUuid(session.projectId)) return;
    // `metadata` and `proxies` are set at create and never change: not written again. The upload
    // count is only ever changed in place (`countUpload`).
    const {
      id,
      projectId,
      createdAt,
      metadata: _,
      proxies: __,
      uploadCount: ___,
      proxyBytes,
      ...rest
    } = toSessionRow(session, this.secrets);
    const changes = this.queries.columns(BrowserSessionSchema, rest) as SessionChanges;
    const params = { id, projectId, status: rest.status, proxyBytes, changes };
    const changed = await withDatabaseErrors(() =>
      this.queries.run(UPDATE_SESSION.query(this.queries, params)),
    );
    if (changed === 0) await this.endClaim(id, projectId);
  }

  async postponeSync(session: BrowserSession, until: Date): Promise<void> {
    if (!isUuid(session.id) || !isUuid(session.projectId)) return;
    const params = { id: session.id, projectId: session.projectId, until };
    await withDatabaseErrors(() => this.queries.run(POSTPONE_SYNC.query(this.queries, params)));
  }

  async updateStatus(session: BrowserSession): Promise<void> {
    if (!isUuid(session.id) || !isUuid(session.projectId)) return;
    const { id, projectId, status, endedAt, updatedAt } = session;
    // The same final-status rule as `update`; the claim ends whether or not the row changed.
    const params = { id, projectId, status, endedAt, updatedAt };
    const changed = await withDatabaseErrors(() =>
      this.queries.run(UPDATE_STATUS.query(this.queries, params)),
    );
    if (changed === 0) await this.endClaim(id, projectId);
  }

  async findInProject(projectId: string, sessionId: string): Promise<BrowserSession | null> {
    if (!isUuid(projectId) || !isUuid(sessionId)) return null;
    const [session] = await this.read(SESSION_IN_PROJECT.query(this.queries, { id: sessionId, projectId }));
    return session ?? null;
  }

  async list(projectId: string, query: SessionListQuery): Promise<SessionPage> {
    if (!isUuid(projectId)) return { sessions: [], total: 0 };
    // The list is what dashboards poll: two index scans, the page and its total, at once.
    const { page, total } = sessionListQueries(this.queries, projectId, query);
    const [sessions, counted] = await Promise.all([
      this.read(page),
      withDatabaseErrors(() => this.queries.rows(total)),
    ]);
    return { sessions, total: Number(counted[0]?.total ?? 0) };
  }

  async stats(projectId: string, now: Date): Promise<SessionStats> {
    if (!isUuid(projectId)) return NO_SESSIONS;
    return withDatabaseErrors(() => querySessionStats(this.queries, projectId, now));
  }

  async statsSeries(projectId: string, query: StatsSeriesQuery): Promise<StatsBucket[]> {
    if (!isUuid(projectId)) return emptyStatsSeries(query);
    return withDatabaseErrors(() => querySessionStatsSeries(this.queries, projectId, query));
  }

  async listActiveInProject(projectId: string): Promise<BrowserSession[]> {
    if (!isUuid(projectId)) return [];
    return this.read(ACTIVE_IN_PROJECT.query(this.queries, { projectId }));
  }

  async listActiveHeldBy(instanceId: string, limit: number): Promise<BrowserSession[]> {
    if (limit <= 0) return [];
    return this.read(ACTIVE_HELD_BY.query(this.queries, { instanceId, limit: Math.floor(limit) }));
  }

  async claimForSync(
    now: Date,
    leaseUntil: Date,
    limit: number,
    syncedBefore?: Date,
    scope?: SyncScope,
  ): Promise<BrowserSession[]> {
    if (limit <= 0) return [];
    const rows = await withDatabaseErrors(() =>
      this.queries.entities(
        BrowserSessionSchema,
        claimForSyncQuery(this.queries, {
          now,
          leaseUntil,
          syncedBefore: syncedBefore ?? NO_CUT_OFF,
          limit,
          scope,
        }),
      ),
    );
    const claimed = rows as StoredBrowserSession[];
    // `returning` keeps no order: least recently synced first, as claimed.
    claimed.sort((a, b) => a.lastSyncedAt.getTime() - b.lastSyncedAt.getTime() || (a.id < b.id ? -1 : 1));
    return claimed.map((row) => toBrowserSession(row, this.secrets));
  }

  async addProxyBytes(deltas: readonly ProxyBytesDelta[]): Promise<ProxyBytesDelta[]> {
    const byId = new Map<string, number>();
    for (const { providerSessionId, bytes } of deltas) {
      if (Number.isSafeInteger(bytes) && bytes > 0)
        byId.set(providerSessionId, (byId.get(providerSessionId) ?? 0) + bytes);
    }
    if (byId.size === 0) return [];
    const entries = [...byId];
    const rows = await withDatabaseErrors(() =>
      this.queries.entities(BrowserSessionSchema, ADD_PROXY_BYTES.query(this.queries, entries)),
    );
    const matched = new Set(rows.map((row) => row.providerSessionId));
    return entries
      .filter(([providerSessionId]) => !matched.has(providerSessionId))
      .map(([providerSessionId, total]) => ({ providerSessionId, bytes: total }));
  }

  async countUpload(projectId: string, sessionId: string, max: number): Promise<boolean> {
    if (!isUuid(projectId) || !isUuid(sessionId)) return false;
    const params = { id: sessionId, projectId, max: Math.floor(max) };
    return (await withDatabaseErrors(() => this.queries.run(COUNT_UPLOAD.query(this.queries, params)))) === 1;
  }

  async uncountUpload(projectId: string, sessionId: string): Promise<void> {
    if (!isUuid(projectId) || !isUuid(sessionId)) return;
    const params = { id: sessionId, projectId };
    await withDatabaseErrors(() => this.queries.run(UNCOUNT_UPLOAD.query(this.queries, params)));
  }

  /** Ends any sync claim on the session, writing nothing else. */
  private async endClaim(id: string, projectId: string): Promise<void> {
    await withDatabaseErrors(() => this.queries.run(END_CLAIM.query(this.queries, { id, projectId })));
  }

  private async read(query: Query): Promise<BrowserSession[]> {
    const rows = await withDatabaseErrors(() => this.queries.entities(BrowserSessionSchema, query));
    return rows.map((row) => toBrowserSession(row, this.secrets));
  }
}
