import type { RunLogLine, RunLogStore, RunLogStream } from '@browserdeck/domain';
import { sql } from 'kysely';
import type { BrowserdeckOrm } from './BrowserdeckOrm.ts';
import { isUuid, withDatabaseErrors } from './databaseErrors.ts';
import { RunLogSchema } from './entities/RunLogSchema.ts';
import { type KyselyQueries, queriesOf } from './KyselyQueries.ts';
import { DELETE_LOG_LINES } from './runRetentionStatements.ts';
import { Statement } from './Statement.ts';
import { sqlTime } from './sqlTime.ts';

/** A line as the append statement reads it from its JSON parameter; `at` as `sqlTime` gives it. */
interface LineParam {
  seq: number;
  at: Date | number;
  stream: string;
  message: string;
}

/**
 * A whole batch in one statement, whatever its size, so one statement text serves them all:
 * the lines travel as one JSON array, unpacked by the dialect's JSON table function (SQLite's
 * `json_each`, PostgreSQL's `jsonb_to_recordset`). `on conflict do nothing` skips a `seq` already
 * stored; `where exists` stores nothing for a run that is gone (deleted with its project) instead
 * of failing its foreign key, and gives SQLite's `insert … select … on conflict` the `where` it needs.
 */
const APPEND = new Statement<{ runId: string; lines: LineParam[] }>(
  (db, { runId, lines: batch }, dialect) => {
    const lines =
      dialect === 'sqlite'
        ? sql`select ${runId}, json_extract(value, '$.seq'), json_extract(value, '$.at'),
          json_extract(value, '$.stream'), json_extract(value, '$.message') from json_each(${batch})`
        : sql`select cast(${runId} as uuid), x.seq, x.at, x.stream, x.message
          from jsonb_to_recordset(cast(${batch} as jsonb)) as x(seq integer, at timestamptz, stream text, message text)`;
    return db
      .insertInto('run_logs')
      .columns(['run_id', 'seq', 'timestamp', 'stream', 'message'])
      .expression(sql`${lines} where exists (select 1 from runs where id = ${runId})`)
      .onConflict((oc) => oc.doNothing());
  },
);

const READ = new Statement<{ runId: string; afterSeq: number; limit: number }>(
  (db, { runId, afterSeq, limit }) =>
    db
      .selectFrom('run_logs')
      .selectAll()
      .where('run_id', '=', runId)
      .where('seq', '>', afterSeq)
      .orderBy('seq')
      .limit(limit),
);

/** What `MikroOrmRunLogStore` needs. */
export interface MikroOrmRunLogStoreDeps {
  orm: BrowserdeckOrm;
}

/**
 * `RunLogStore` on MikroORM (SQLite, PostgreSQL): `run_logs`, keyed by `(run_id, seq)`. A batch is
 * one insert that skips `seq`s already stored, so a retried append stores each line once. NUL
 * characters, which PostgreSQL's text cannot hold, are stored as U+FFFD on both dialects.
 */
export class MikroOrmRunLogStore implements RunLogStore {
  private readonly queries: KyselyQueries;

  constructor(deps: MikroOrmRunLogStoreDeps) {
    this.queries = queriesOf(deps.orm);
  }

  async append(runId: string, lines: readonly RunLogLine[]): Promise<void> {
    if (!isUuid(runId) || lines.length === 0) return;
    const { dialect } = this.queries;
    const batch = lines.map(
      (line): LineParam => ({
        seq: line.seq,
        at: sqlTime(dialect, line.timestamp),
        stream: line.stream,
        message: line.message.replaceAll('\u0000', '\uFFFD'),
      }),
    );
    await withDatabaseErrors(() => this.queries.run(APPEND.query(this.queries, { runId, lines: batch })));
  }

  async read(runId: string, afterSeq: number, limit: number): Promise<RunLogLine[]> {
    if (!isUuid(runId) || limit <= 0) return [];
    const params = { runId, afterSeq: Math.floor(afterSeq), limit: Math.floor(limit) };
    const rows = await withDatabaseErrors(() =>
      this.queries.entities(RunLogSchema, READ.query(this.queries, params)),
    );
    return rows.map((row) => ({
      seq: Number(row.seq),
      timestamp: row.timestamp as Date,
      stream: row.stream as RunLogStream,
      message: row.message as string,
    }));
  }

  async deleteOfRuns(runIds: readonly string[], limit: number): Promise<number> {
    const ids = [...new Set(runIds)].filter(isUuid);
    if (ids.length === 0 || limit <= 0) return 0;
    const params = { ids, limit: Math.floor(limit) };
    return withDatabaseErrors(() => this.queries.run(DELETE_LOG_LINES.query(this.queries, params)));
  }
}
