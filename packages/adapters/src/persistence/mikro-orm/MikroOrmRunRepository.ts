import {
  RUN_STATUSES,
  type Run,
  type RunListQuery,
  type RunPage,
  type RunRepository,
  type RunStatus,
} from '@browserdeck/domain';
import type { Insertable, Updateable } from 'kysely';
import type { SecretBox } from '../secrets/SecretBox.ts';
import type { BrowserdeckOrm } from './BrowserdeckOrm.ts';
import { isUuid, withDatabaseErrors } from './databaseErrors.ts';
import { RunSchema } from './entities/RunSchema.ts';
import { type KyselyQueries, type Query, queriesOf } from './KyselyQueries.ts';
import type { BrowserdeckDb } from './kyselyDatabase.ts';
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
  runListQueries,
  UPDATE_RUN,
} from './runStatements.ts';

/** What `MikroOrmRunRepository` needs. */
export interface MikroOrmRunRepositoryDeps {
  orm: BrowserdeckOrm;
  /** Seals each run's `env` (and its session request's) at rest. */
  secrets: SecretBox;
}

/**
 * `RunRepository` on MikroORM (SQLite, PostgreSQL), through its Kysely integration (`KyselyQueries`,
 * the statements in `runStatements.ts`). A status change is one `update … where id = ? and status =
 * ?`: of a cancel and a worker, or two workers, exactly one changes the row. `env` is stored sealed
 * by `secrets`.
 */
export class MikroOrmRunRepository implements RunRepository {
  private readonly queries: KyselyQueries;
  private readonly secrets: SecretBox;

  constructor(deps: MikroOrmRunRepositoryDeps) {
    this.queries = queriesOf(deps.orm);
    this.secrets = deps.secrets;
  }

  async add(run: Run): Promise<void> {
    const row = this.queries.columns(RunSchema, toRunRow(run, this.secrets));
    await this.write(INSERT_RUN.query(this.queries, row as Insertable<BrowserdeckDb['runs']>));
  }

  async update(run: Run, expected: RunStatus): Promise<boolean> {
    if (!isUuid(run.id)) return false;
    const { id, projectId, createdAt, ...written } = toRunRow(run, this.secrets);
    const changes = this.queries.columns(RunSchema, written) as Updateable<BrowserdeckDb['runs']>;
    return (await this.write(UPDATE_RUN.query(this.queries, { id: run.id, expected, changes }))) === 1;
  }

  async heartbeat(run: Run): Promise<boolean> {
    const { id, workerId, heartbeatAt, logBytes } = run;
    if (!isUuid(id) || workerId === null || heartbeatAt === null) return false;
    const params = { id, workerId, heartbeatAt, logBytes };
    return (await this.write(HEARTBEAT.query(this.queries, params))) === 1;
  }

  async findInProject(projectId: string, runId: string): Promise<Run | null> {
    if (!isUuid(projectId) || !isUuid(runId)) return null;
    const [run] = await this.read(FIND_IN_PROJECT.query(this.queries, { id: runId, projectId }));
    return run ?? null;
  }

  async findById(runId: string): Promise<Run | null> {
    if (!isUuid(runId)) return null;
    const [run] = await this.read(FIND_BY_ID.query(this.queries, { id: runId }));
    return run ?? null;
  }

  async list(projectId: string, query: RunListQuery): Promise<RunPage> {
    const ids = [projectId, query.agentId, query.sessionId].filter((id) => id !== undefined);
    // A filter that is no UUID matches no row (and must not reach a PostgreSQL `uuid` column).
    if (!ids.every(isUuid)) return { runs: [], total: 0 };
    const { page, total } = runListQueries(this.queries, projectId, query);
    const [runs, counted] = await Promise.all([
      this.read(page),
      withDatabaseErrors(() => this.queries.rows(total)),
    ]);
    return { runs, total: Number(counted[0]?.total ?? 0) };
  }

  listLapsed(heartbeatBefore: Date, limit: number): Promise<Run[]> {
    if (limit <= 0) return Promise.resolve([]);
    return this.read(LAPSED.query(this.queries, { before: heartbeatBefore, limit: Math.floor(limit) }));
  }

  listQueued(limit: number): Promise<Run[]> {
    if (limit <= 0) return Promise.resolve([]);
    return this.read(QUEUED_RUNS.query(this.queries, { limit: Math.floor(limit) }));
  }

  async listActiveInProject(projectId: string): Promise<Run[]> {
    if (!isUuid(projectId)) return [];
    return this.read(ACTIVE_IN_PROJECT.query(this.queries, { projectId }));
  }

  async countQueuedOfOwner(ownerId: string): Promise<number> {
    if (!isUuid(ownerId)) return 0;
    const [row] = await withDatabaseErrors(() =>
      this.queries.rows(COUNT_QUEUED_OF_OWNER.query(this.queries, { ownerId })),
    );
    // PostgreSQL answers a count as a string (bigint).
    return Number(row?.n ?? 0);
  }

  async countByStatus(): Promise<Record<RunStatus, number>> {
    const rows = await withDatabaseErrors(() => this.queries.rows(COUNT_BY_STATUS.query(this.queries, {})));
    const counts = Object.fromEntries(RUN_STATUSES.map((status) => [status, 0])) as Record<RunStatus, number>;
    for (const { status, n } of rows) {
      if ((RUN_STATUSES as readonly unknown[]).includes(status)) counts[status as RunStatus] = Number(n);
    }
    return counts;
  }

  async listEndedBefore(endedBefore: Date, limit: number): Promise<string[]> {
    if (limit <= 0) return [];
    const params = { before: endedBefore, limit: Math.floor(limit) };
    const rows = await withDatabaseErrors(() => this.queries.rows(ENDED_BEFORE.query(this.queries, params)));
    return rows.map((row) => String(row.id));
  }

  async deleteEnded(runIds: readonly string[]): Promise<number> {
    const ids = [...new Set(runIds)].filter(isUuid);
    if (ids.length === 0) return 0;
    return this.write(DELETE_ENDED.query(this.queries, { ids }));
  }

  private write(query: Query): Promise<number> {
    return withDatabaseErrors(() => this.queries.run(query));
  }

  private async read(query: Query): Promise<Run[]> {
    const rows = await withDatabaseErrors(() => this.queries.entities(RunSchema, query));
    return rows.map((row) => toRun(row, this.secrets, this.queries.dialect));
  }
}
