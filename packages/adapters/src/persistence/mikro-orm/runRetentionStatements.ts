import { TERMINAL_RUN_STATUSES } from '@browserdeck/domain';
import { sql } from 'kysely';
import type { DatabaseDialect } from './BrowserdeckOrm.ts';
import { Statement } from './Statement.ts';

/*
 * The statements of run retention (`PruneOldRuns`), each bounded (a limit, or a batch of ids), so
 * none holds a lock for long. A batch of ids travels as one JSON array, unpacked by the dialect's
 * JSON table function (a `sql` template beside its twin), so the statement text is the same
 * whatever the batch size.
 */

const TERMINAL = TERMINAL_RUN_STATUSES.map((status) => sql.lit(status));

/** The ids of the JSON array `ids`, as a subquery `run_id in (…)`/`id in (…)` takes. */
function idsOf(ids: readonly string[], dialect: DatabaseDialect) {
  return dialect === 'sqlite'
    ? sql<string>`(select value from json_each(${ids}))`
    : sql<string>`(select cast(value as uuid) from jsonb_array_elements_text(cast(${ids} as jsonb)))`;
}

/** Terminal runs that ended before the cut-off, longest ended first (the `(ended_at, id)` index). */
export const ENDED_BEFORE = new Statement<{ before: Date; limit: number }>((db, { before, limit }) =>
  db
    .selectFrom('runs')
    .select('id')
    .where('ended_at', '<', before)
    .where('status', 'in', TERMINAL)
    .orderBy('ended_at')
    .orderBy('id')
    .limit(limit),
);

/** Deletes those of the runs that are terminal; their cascade finds their lines already gone. */
export const DELETE_ENDED = new Statement<{ ids: readonly string[] }>((db, { ids }, dialect) =>
  db.deleteFrom('runs').where('id', 'in', idsOf(ids, dialect)).where('status', 'in', TERMINAL),
);

/** Deletes at most `limit` log lines of the runs, found by the `(run_id, seq)` key. */
export const DELETE_LOG_LINES = new Statement<{ ids: readonly string[]; limit: number }>(
  (db, { ids, limit }, dialect) =>
    db
      .deleteFrom('run_logs')
      .where((eb) =>
        eb(
          eb.refTuple('run_id', 'seq'),
          'in',
          eb
            .selectFrom('run_logs')
            .select(['run_id', 'seq'])
            .where('run_id', 'in', idsOf(ids, dialect))
            .limit(limit)
            .$asTuple('run_id', 'seq'),
        ),
      ),
);
