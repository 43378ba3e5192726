import { ACTIVE_RUN_STATUSES, type RunListQuery } from '@browserdeck/domain';
import { type CompiledQuery, type Kysely, sql } from 'kysely';
import type { BrowserdeckOrm } from './BrowserdeckOrm.ts';
import { RUN_PROPERTIES } from './entities/RunSchema.ts';
import type { BrowserdeckDb } from './kyselyDatabase.ts';
import { type Param, PreparedQuery } from './PreparedQuery.ts';
import type { RunRow } from './runRows.ts';

/*
 * The statements of `MikroOrmRunRepository`, prepared Kysely queries (docs/adr/0018). Statuses the
 * partial indexes name are SQL literals, not parameters: PostgreSQL's named statements may run on a
 * generic plan, which matches a partial index only on the literal its `where` holds.
 */

const RUNNING = sql.lit('RUNNING');
const QUEUED = sql.lit('QUEUED');
const ACTIVE = ACTIVE_RUN_STATUSES.map((status) => sql.lit(status));

/** A new run's row, every column bound. */
export const INSERT_RUN = new PreparedQuery<RunRow>((db, param) =>
  db.insertInto('runs').values(Object.fromEntries(RUN_PROPERTIES.map((key) => [key, param(key)])) as never),
);

/** The columns a compare-and-set writes: every one but the key, the project and the creation time. */
const WRITTEN = RUN_PROPERTIES.filter((key) => key !== 'id' && key !== 'projectId' && key !== 'createdAt');

/** Writes the run whole while its stored status is still `expected`. */
export const UPDATE_RUN = new PreparedQuery<RunRow & { expected: string }>((db, param) =>
  db
    .updateTable('runs')
    .set(Object.fromEntries(WRITTEN.map((key) => [key, param(key)])) as never)
    .where('id', '=', param('id'))
    .where('status', '=', param('expected')),
);

/** The worker's heartbeat: only while the run is RUNNING by that worker. */
export const HEARTBEAT = new PreparedQuery<{
  id: string;
  workerId: string;
  heartbeatAt: Date;
  logBytes: number;
}>((db, param) =>
  db
    .updateTable('runs')
    .set({ heartbeatAt: param('heartbeatAt'), logBytes: param('logBytes') })
    .where('id', '=', param('id'))
    .where('status', '=', RUNNING)
    .where('workerId', '=', param('workerId')),
);

export const FIND_IN_PROJECT = new PreparedQuery<{ id: string; projectId: string }>((db, param) =>
  db.selectFrom('runs').selectAll().where('id', '=', param('id')).where('projectId', '=', param('projectId')),
);

export const FIND_BY_ID = new PreparedQuery<{ id: string }>((db, param) =>
  db.selectFrom('runs').selectAll().where('id', '=', param('id')),
);

/** RUNNING runs whose heartbeat is older than the cut-off, oldest first (the partial heartbeat index). */
export const LAPSED = new PreparedQuery<{ before: Date; limit: number }>((db, param) =>
  db
    .selectFrom('runs')
    .selectAll()
    .where('status', '=', RUNNING)
    .where('heartbeatAt', '<', param('before'))
    .orderBy('heartbeatAt')
    .orderBy('id')
    .limit(param('limit')),
);

/** QUEUED runs, oldest first (the partial queued index). */
export const QUEUED_RUNS = new PreparedQuery<{ limit: number }>((db, param) =>
  db
    .selectFrom('runs')
    .selectAll()
    .where('status', '=', QUEUED)
    .orderBy('createdAt')
    .orderBy('id')
    .limit(param('limit')),
);

export const ACTIVE_IN_PROJECT = new PreparedQuery<{ projectId: string }>((db, param) =>
  db
    .selectFrom('runs')
    .selectAll()
    .where('projectId', '=', param('projectId'))
    .where('status', 'in', ACTIVE)
    .orderBy('createdAt')
    .orderBy('id'),
);

/** How many of an account's runs are QUEUED (the partial queued index holds no more than the queued runs). */
export const COUNT_QUEUED_OF_OWNER = new PreparedQuery<{ ownerId: string }>((db, param) =>
  db
    .selectFrom('runs')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('status', '=', QUEUED)
    .where('ownerId', '=', param('ownerId')),
);

export const COUNT_BY_STATUS = new PreparedQuery<Record<string, never>>((db) =>
  db
    .selectFrom('runs')
    .select((eb) => ['status', eb.fn.countAll().as('n')])
    .groupBy('status'),
);

/** The parameters of the list statements. */
interface ListParams {
  projectId: string;
  agentId: string | null;
  sessionId: string | null;
  status: string | null;
  limit: number;
  offset: number;
}

/** The page and total statements of one shape of list: which of the three filters it applies. */
function listShape(byAgent: boolean, bySession: boolean, byStatus: boolean) {
  const filtered = (db: Kysely<BrowserdeckDb>, param: Param<ListParams>) => {
    let from = db.selectFrom('runs').where('projectId', '=', param('projectId'));
    if (byAgent) from = from.where('agentId', '=', param('agentId'));
    if (bySession) from = from.where('sessionId', '=', param('sessionId'));
    if (byStatus) from = from.where('status', '=', param('status'));
    return from;
  };
  return {
    page: new PreparedQuery<ListParams>((db, param) =>
      filtered(db, param)
        .selectAll()
        .orderBy('createdAt', 'desc')
        .orderBy('id', 'desc')
        .limit(param('limit'))
        .offset(param('offset')),
    ),
    total: new PreparedQuery<ListParams>((db, param) =>
      filtered(db, param).select((eb) => eb.fn.countAll().as('total')),
    ),
  };
}

/** Every shape, indexed by the filters it applies (agent, session, status as bits). */
const SHAPES = Array.from({ length: 8 }, (_, bits) => listShape(!!(bits & 4), !!(bits & 2), !!(bits & 1)));

/**
 * The two statements of `RunRepository.list`: one page, newest first, and the total. Each is a range
 * scan of `(project_id, created_at, id)`, `(project_id, status, …)`, `(project_id, agent_id, …)` or
 * `(project_id, session_id, …)`; further filters are checked on the rows found.
 */
export function runListStatements(
  orm: BrowserdeckOrm,
  projectId: string,
  query: RunListQuery,
): { page: CompiledQuery; total: CompiledQuery } {
  const { agentId, sessionId, status } = query;
  const bits =
    (agentId === undefined ? 0 : 4) | (sessionId === undefined ? 0 : 2) | (status === undefined ? 0 : 1);
  const shape = SHAPES[bits]!;
  const params: ListParams = {
    projectId,
    agentId: agentId ?? null,
    sessionId: sessionId ?? null,
    status: status ?? null,
    limit: query.limit,
    offset: query.offset,
  };
  return { page: shape.page.compile(orm, params), total: shape.total.compile(orm, params) };
}
