import {
  RUN_STATUSES,
  type Run,
  type RunListQuery,
  type RunPage,
  type RunRepository,
  type RunStatus,
} from '@browserdeck/domain';
import type { SecretBox } from '../secrets/SecretBox.ts';
import { type BrowserdeckOrm, dialectOf } from './BrowserdeckOrm.ts';
import { isUuid, withDatabaseErrors } from './databaseErrors.ts';
import { RunSchema } from './entities/RunSchema.ts';
import { nativeSqlOf, type SqlParam } from './NativeSql.ts';
import { type PreparedQuery, type QueryValue, readEntities } from './PreparedQuery.ts';
import { DELETE_ENDED, ENDED_BEFORE } from './runRetentionStatements.ts';
import { toRun, toRunRow } from './runRows.ts';
import {
  ACTIVE_IN_PROJECT,
  COUNT_BY_STATUS,
  COUNT_QUEUED_OF_OWNER,
  FIND_BY_ID,
  FIND_IN_PROJECT,
  HEARTBEAT,
  INSERT_RUN,
  LAPSED,
  QUEUED_RUNS,
  runListStatements,
  UPDATE_RUN,
} from './runStatements.ts';

/** What `MikroOrmRunRepository` needs. */
export interface MikroOrmRunRepositoryDeps {
  orm: BrowserdeckOrm;
  /** Seals each run's `env` (and its session request's) at rest. */
  secrets: SecretBox;
}

/**
 * `RunRepository` on MikroORM (SQLite, PostgreSQL), every statement a prepared Kysely query
 * (`runStatements.ts`). A status change is one `update … where id = ? and status = ?`: of a cancel
 * and a worker, or two workers, exactly one changes the row. `env` is stored sealed by `secrets`.
 */
export class MikroOrmRunRepository implements RunRepository {
  private readonly deps: MikroOrmRunRepositoryDeps;

  constructor(deps: MikroOrmRunRepositoryDeps) {
    this.deps = deps;
  }

  async add(run: Run): Promise<void> {
    const row = toRunRow(run, this.deps.secrets);
    await withDatabaseErrors(() => INSERT_RUN.run(this.deps.orm, row));
  }

  async update(run: Run, expected: RunStatus): Promise<boolean> {
    if (!isUuid(run.id)) return false;
    const row = { ...toRunRow(run, this.deps.secrets), expected };
    return (await withDatabaseErrors(() => UPDATE_RUN.run(this.deps.orm, row))) === 1;
  }

  async heartbeat(run: Run): Promise<boolean> {
    const { id, workerId, heartbeatAt, logBytes } = run;
    if (!isUuid(id) || workerId === null || heartbeatAt === null) return false;
    const params = { id, workerId, heartbeatAt, logBytes };
    return (await withDatabaseErrors(() => HEARTBEAT.run(this.deps.orm, params))) === 1;
  }

  async findInProject(projectId: string, runId: string): Promise<Run | null> {
    if (!isUuid(projectId) || !isUuid(runId)) return null;
    const [run] = await this.read(FIND_IN_PROJECT, { id: runId, projectId });
    return run ?? null;
  }

  async findById(runId: string): Promise<Run | null> {
    if (!isUuid(runId)) return null;
    const [run] = await this.read(FIND_BY_ID, { id: runId });
    return run ?? null;
  }

  async list(projectId: string, query: RunListQuery): Promise<RunPage> {
    const ids = [projectId, query.agentId, query.sessionId].filter((id) => id !== undefined);
    // A filter that is no UUID matches no row (and must not reach a PostgreSQL `uuid` column).
    if (!ids.every(isUuid)) return { runs: [], total: 0 };
    const { page, total } = runListStatements(this.deps.orm, projectId, query);
    const sql = nativeSqlOf(this.deps.orm);
    const [rows, counted] = await withDatabaseErrors(() =>
      Promise.all([
        sql.all<Record<string, unknown>>(page.sql, page.parameters as SqlParam[]),
        sql.one<{ total: unknown }>(total.sql, total.parameters as SqlParam[]),
      ]),
    );
    return { runs: this.toRuns(rows), total: Number(counted?.total ?? 0) };
  }

  listLapsed(heartbeatBefore: Date, limit: number): Promise<Run[]> {
    if (limit <= 0) return Promise.resolve([]);
    return this.read(LAPSED, { before: heartbeatBefore, limit: Math.floor(limit) });
  }

  listQueued(limit: number): Promise<Run[]> {
    if (limit <= 0) return Promise.resolve([]);
    return this.read(QUEUED_RUNS, { limit: Math.floor(limit) });
  }

  async listActiveInProject(projectId: string): Promise<Run[]> {
    if (!isUuid(projectId)) return [];
    return this.read(ACTIVE_IN_PROJECT, { projectId });
  }

  async countQueuedOfOwner(ownerId: string): Promise<number> {
    if (!isUuid(ownerId)) return 0;
    const rows = await withDatabaseErrors(() => COUNT_QUEUED_OF_OWNER.rows(this.deps.orm, { ownerId }));
    return Number(rows[0]?.n ?? 0);
  }

  async countByStatus(): Promise<Record<RunStatus, number>> {
    const rows = await withDatabaseErrors(() => COUNT_BY_STATUS.rows(this.deps.orm, {}));
    const counts = Object.fromEntries(RUN_STATUSES.map((status) => [status, 0])) as Record<RunStatus, number>;
    for (const { status, n } of rows) {
      if ((RUN_STATUSES as readonly unknown[]).includes(status)) counts[status as RunStatus] = Number(n);
    }
    return counts;
  }

  async listEndedBefore(endedBefore: Date, limit: number): Promise<string[]> {
    if (limit <= 0) return [];
    const params = { before: endedBefore, limit: Math.floor(limit) };
    const rows = await withDatabaseErrors(() => ENDED_BEFORE.rows(this.deps.orm, params));
    return rows.map((row) => String(row.id));
  }

  async deleteEnded(runIds: readonly string[]): Promise<number> {
    const ids = [...new Set(runIds)].filter(isUuid);
    if (ids.length === 0) return 0;
    return withDatabaseErrors(() => DELETE_ENDED.run(this.deps.orm, { ids }));
  }

  private async read<P extends { [K in keyof P]: QueryValue }>(
    query: PreparedQuery<P>,
    params: P,
  ): Promise<Run[]> {
    return this.toRuns(await withDatabaseErrors(() => query.rows(this.deps.orm, params)));
  }

  private toRuns(rows: readonly Record<string, unknown>[]): Run[] {
    const { orm, secrets } = this.deps;
    const dialect = dialectOf(orm);
    return readEntities(orm, RunSchema, rows).map((row) => toRun(row, secrets, dialect));
  }
}
