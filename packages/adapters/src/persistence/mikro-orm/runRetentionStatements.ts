import { TERMINAL_RUN_STATUSES } from '@browserdeck/domain';
import { sql } from 'kysely';
import type { DatabaseDialect } from './BrowserdeckOrm.ts';
import { type Param, PreparedQuery } from './PreparedQuery.ts';

/*
 * The statements of run retention (`PruneOldRuns`): prepared Kysely queries, each bounded (a limit,
 * or a batch of ids), so none holds a lock for long. A batch of ids travels as one JSON array,
 * unpacked by the dialect's JSON table function, so one prepared statement serves every batch size.
 */

const TERMINAL = TERMINAL_RUN_STATUSES.map((status) => sql.lit(status));

/** The ids of the JSON array parameter `ids`, as a subquery `run_id in (…)`/`id in (…)` takes. */
function idsOf(param: Param<{ ids: string[] }>, dialect: DatabaseDialect) {
  return dialect === 'sqlite'
    ? sql<string>`(select value from json_each(${param('ids')}))`
    : sql<string>`(select cast(value as uuid) from jsonb_array_elements_text(cast(${param('ids')} as jsonb)))`;
}

/** Terminal runs that ended before the cut-off, longest ended first (the `(ended_at, id)` index). */
export const ENDED_BEFORE = new PreparedQuery<{ before: Date; limit: number }>((db, param) =>
  db
    .selectFrom('runs')
    .select('id')
    .where('endedAt', '<', param('before'))
    .where('status', 'in', TERMINAL)
    .orderBy('endedAt')
    .orderBy('id')
    .limit(param('limit')),
);

/** Deletes those of the runs that are terminal; their cascade finds their lines already gone. */
export const DELETE_ENDED = new PreparedQuery<{ ids: string[] }>((db, param, dialect) =>
  db.deleteFrom('runs').where('id', 'in', idsOf(param, dialect)).where('status', 'in', TERMINAL),
);

/** Deletes at most `limit` log lines of the runs, found by the `(run_id, seq)` key. */
export const DELETE_LOG_LINES = new PreparedQuery<{ ids: string[]; limit: number }>((db, param, dialect) =>
  db
    .deleteFrom('run_logs')
    .where((eb) =>
      eb(
        eb.refTuple('runId', 'seq'),
        'in',
        eb
          .selectFrom('run_logs')
          .select(['runId', 'seq'])
          .where('runId', 'in', idsOf(param, dialect))
          .limit(param('limit'))
          .$asTuple('runId', 'seq'),
      ),
    ),
);
