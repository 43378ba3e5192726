import { ACTIVE_RUN_STATUSES, type RunListQuery } from '@browserdeck/domain';
import { type CompiledQuery, type Insertable, sql, type Updateable } from 'kysely';
import type { BrowserdeckOrm } from './BrowserdeckOrm.ts';
import { type KyselyQueries, type Query, queriesOf } from './KyselyQueries.ts';
import type { BrowserdeckDb } from './kyselyDatabase.ts';
import { Statement } from './Statement.ts';

/*
 * The statements of `MikroOrmRunRepository`. Statuses the partial indexes name are SQL literals,
 * not parameters: a PostgreSQL generic plan matches a partial index only on the literal its
 * `where` holds.
 */

const RUNNING = sql.lit('RUNNING');
const QUEUED = sql.lit('QUEUED');
const ACTIVE = ACTIVE_RUN_STATUSES.map((status) => sql.lit(status));

/** A new run's row, every column (`KyselyQueries.columns` of its `RunRow`). */
export const INSERT_RUN = new Statement<Insertable<BrowserdeckDb['runs']>>((db, row) =>
  db.insertInto('runs').values(row),
);

/** Writes the run whole (all but its key, project and creation) while its stored status is still `expected`. */
export const UPDATE_RUN = new Statement<{
  id: string;
  expected: string;
  changes: Updateable<BrowserdeckDb['runs']>;
}>((db, { id, expected, changes }) =>
  db.updateTable('runs').set(changes).where('id', '=', id).where('status', '=', expected),
);

/** The worker's heartbeat: only while the run is RUNNING by that worker. */
export const HEARTBEAT = new Statement<{ id: string; workerId: string; heartbeatAt: Date; logBytes: number }>(
  (db, { id, workerId, heartbeatAt, logBytes }) =>
    db
      .updateTable('runs')
      .set({ heartbeat_at: heartbeatAt, log_bytes: logBytes })
      .where('id', '=', id)
      .where('status', '=', RUNNING)
      .where('worker_id', '=', workerId),
);

export const FIND_IN_PROJECT = new Statement<{ id: string; projectId: string }>((db, { id, projectId }) =>
  db.selectFrom('runs').selectAll().where('id', '=', id).where('project_id', '=', projectId),
);

export const FIND_BY_ID = new Statement<{ id: string }>((db, { id }) =>
  db.selectFrom('runs').selectAll().where('id', '=', id),
);

/** RUNNING runs whose heartbeat is older than the cut-off, oldest first (the partial heartbeat index). */
export const LAPSED = new Statement<{ before: Date; limit: number }>((db, { before, limit }) =>
  db
    .selectFrom('runs')
    .selectAll()
    .where('status', '=', RUNNING)
    .where('heartbeat_at', '<', before)
    .orderBy('heartbeat_at')
    .orderBy('id')
    .limit(limit),
);

/** QUEUED runs, oldest first (the partial queued index). */
export const QUEUED_RUNS = new Statement<{ limit: number }>((db, { limit }) =>
  db
    .selectFrom('runs')
    .selectAll()
    .where('status', '=', QUEUED)
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit),
);

export const ACTIVE_IN_PROJECT = new Statement<{ projectId: string }>((db, { projectId }) =>
  db
    .selectFrom('runs')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('status', 'in', ACTIVE)
    .orderBy('created_at')
    .orderBy('id'),
);

/** How many of an account's runs are QUEUED (the partial queued index holds no more than the queued runs). */
export const COUNT_QUEUED_OF_OWNER = new Statement<{ ownerId: string }>((db, { ownerId }) =>
  db
    .selectFrom('runs')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('status', '=', QUEUED)
    .where('owner_id', '=', ownerId),
);

export const COUNT_BY_STATUS = new Statement<Record<string, never>>((db) =>
  db
    .selectFrom('runs')
    .select((eb) => ['status', eb.fn.countAll().as('n')])
    .groupBy('status'),
);

/**
 * The two queries of `RunRepository.list`: one page, newest first, and the total. Each is a range
 * scan of `(project_id, created_at, id)`, `(project_id, status, …)`, `(project_id, agent_id, …)` or
 * `(project_id, session_id, …)`; further filters are checked on the rows found.
 */
export function runListQueries(
  queries: KyselyQueries,
  projectId: string,
  query: RunListQuery,
): { page: Query; total: Query } {
  const { agentId, sessionId, status } = query;
  const filtered = queries.db
    .selectFrom('runs')
    .where('project_id', '=', projectId)
    .$if(agentId !== undefined, (q) => q.where('agent_id', '=', agentId as string))
    .$if(sessionId !== undefined, (q) => q.where('session_id', '=', sessionId as string))
    .$if(status !== undefined, (q) => q.where('status', '=', status as string));
  return {
    page: filtered
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(query.limit)
      .offset(query.offset),
    total: filtered.select((eb) => eb.fn.countAll().as('total')),
  };
}

/** `runListQueries` compiled on `orm`, values bound as stored: what tests show the plans of. */
export function runListStatements(
  orm: BrowserdeckOrm,
  projectId: string,
  query: RunListQuery,
): { page: CompiledQuery; total: CompiledQuery } {
  const queries = queriesOf(orm);
  const { page, total } = runListQueries(queries, projectId, query);
  return { page: queries.compile(page), total: queries.compile(total) };
}
