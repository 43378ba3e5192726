import {
  emptyStatsSeries,
  type StatsBucket,
  type StatsInterval,
  type StatsSeriesQuery,
  statsSeriesBuckets,
} from '@browserdeck/domain';
import { type BrowserdeckOrm, type DatabaseDialect, dialectOf } from './BrowserdeckOrm.ts';
import { nativeSqlOf, type SqlParam, sqlDate } from './NativeSql.ts';

/** PostgreSQL's name of each bucket width, inlined (a closed set) so `date_bin` sees a constant. */
const PG_INTERVAL: Record<StatsInterval, string> = { hour: "interval '1 hour'", day: "interval '1 day'" };

const FINAL = "'COMPLETED', 'ERROR', 'TIMED_OUT'";

/** A row of the statement: a bucket with something in it. */
interface SeriesRow {
  start: unknown;
  created: unknown;
  completed: unknown;
  errored: unknown;
  timedOut: unknown;
  browserSec: unknown;
}

/**
 * The statement behind `querySessionStatsSeries` and its parameters (`?` placeholders), exposed so
 * that benchmarks can show its query plan. Three scans of the project's index entries, added up per
 * bucket: creations by `created_at` (a range of `(project_id, created_at, id)`), final statuses by
 * `ended_at` (the covering `(project_id, status, …, started_at, ended_at)` index), and browser time,
 * which is cut into one piece per bucket a session overlaps: a recursive CTE on SQLite, which has no
 * `generate_series`; `generate_series` over `date_bin` on PostgreSQL. Only non-empty buckets come back.
 */
export function sessionStatsSeriesStatement(
  dialect: DatabaseDialect,
  projectId: string,
  query: StatsSeriesQuery,
): { sql: string; params: SqlParam[] } {
  const { start, width, count } = statsSeriesBuckets(query);
  const windowStart = new Date(start);
  const windowEnd = new Date(start + count * width);
  const params: SqlParam[] = [];
  const bind = (value: SqlParam) => {
    params.push(value);
    return '?';
  };
  if (dialect === 'sqlite') {
    // Times are epoch milliseconds; better-sqlite3 binds numbers as doubles, hence the casts.
    const w0 = () => bind(windowStart);
    const w1 = () => bind(windowEnd);
    const size = () => bind(width);
    const now = () => bind(query.now);
    const p = () => bind(projectId);
    const sql = `with recursive pieces(b, a, e) as (
        select cast((max(started_at, ${w0()}) - ${w0()}) / ${size()} as integer), max(started_at, ${w0()}),
          min(coalesce(ended_at, ${now()}), ${w1()})
        from browser_sessions
        where project_id = ${p()} and started_at < ${w1()} and coalesce(ended_at, ${now()}) > max(started_at, ${w0()})
        union all
        select b + 1, ${w0()} + (b + 1) * ${size()}, e from pieces where ${w0()} + (b + 1) * ${size()} < e
      )
      select ${w0()} + b * ${size()} as "start", sum(created) as "created", sum(completed) as "completed",
        sum(errored) as "errored", sum(timed_out) as "timedOut", coalesce(sum(ms), 0) / 1000.0 as "browserSec"
      from (
        select cast((created_at - ${w0()}) / ${size()} as integer) as b, 1 as created, 0 as completed, 0 as errored,
          0 as timed_out, null as ms
        from browser_sessions where project_id = ${p()} and created_at >= ${w0()} and created_at < ${w1()}
        union all
        select cast((ended_at - ${w0()}) / ${size()} as integer), 0, status = 'COMPLETED', status = 'ERROR',
          status = 'TIMED_OUT', null
        from browser_sessions
        where project_id = ${p()} and status in (${FINAL}) and ended_at >= ${w0()} and ended_at < ${w1()}
        union all
        select b, 0, 0, 0, 0, min(e, ${w0()} + (b + 1) * ${size()}) - a from pieces
      ) as counted
      group by b order by b`;
    return { sql, params };
  }
  const step = PG_INTERVAL[query.interval];
  const w0 = () => `${bind(windowStart)}::timestamptz`;
  const w1 = () => `${bind(windowEnd)}::timestamptz`;
  const now = () => `${bind(query.now)}::timestamptz`;
  const p = () => `${bind(projectId)}::uuid`;
  // Per row only timestamp arithmetic; `extract(epoch …)` runs once per bucket (see querySessionStats).
  const sql = `with pieces as (
      select g.b, least(s.e, g.b + ${step}) - greatest(s.a, g.b) as piece
      from (
        select greatest(started_at, ${w0()}) as a, least(coalesce(ended_at, ${now()}), ${w1()}) as e
        from browser_sessions
        where project_id = ${p()} and started_at < ${w1()}
          and coalesce(ended_at, ${now()}) > greatest(started_at, ${w0()})
      ) as s
      cross join lateral generate_series(date_bin(${step}, s.a, ${w0()}), s.e, ${step}) as g(b)
      where g.b < s.e
    )
    select bucket as "start", sum(created) as "created", sum(completed) as "completed", sum(errored) as "errored",
      sum(timed_out) as "timedOut", coalesce(extract(epoch from sum(piece)), 0) as "browserSec"
    from (
      select date_bin(${step}, created_at, ${w0()}) as bucket, 1 as created, 0 as completed, 0 as errored,
        0 as timed_out, null::interval as piece
      from browser_sessions where project_id = ${p()} and created_at >= ${w0()} and created_at < ${w1()}
      union all
      select date_bin(${step}, ended_at, ${w0()}), 0, (status = 'COMPLETED')::int, (status = 'ERROR')::int,
        (status = 'TIMED_OUT')::int, null
      from browser_sessions
      where project_id = ${p()} and status in (${FINAL}) and ended_at >= ${w0()} and ended_at < ${w1()}
      union all
      select b, 0, 0, 0, 0, piece from pieces
    ) as counted
    group by bucket order by bucket`;
  return { sql, params };
}

/**
 * A project's stats series (`SessionRepository.statsSeries`) in one aggregate statement: the
 * database counts and sums per bucket, no session is loaded; empty buckets are filled in here.
 */
export async function querySessionStatsSeries(
  orm: BrowserdeckOrm,
  projectId: string,
  query: StatsSeriesQuery,
): Promise<StatsBucket[]> {
  const { sql, params } = sessionStatsSeriesStatement(dialectOf(orm), projectId, query);
  const rows = await nativeSqlOf(orm).all<SeriesRow>(sql, params);
  const series = emptyStatsSeries(query);
  const { start, width } = statsSeriesBuckets(query);
  for (const row of rows) {
    const index = Math.round((sqlDate(row.start).getTime() - start) / width);
    const bucket = series[index];
    if (!bucket)
      throw new Error(`The stats series answered a bucket outside its window: ${String(row.start)}`);
    // PostgreSQL answers bigint and numeric as strings.
    series[index] = {
      start: bucket.start,
      created: Number(row.created),
      completed: Number(row.completed),
      errored: Number(row.errored),
      timedOut: Number(row.timedOut),
      browserSec: Number(row.browserSec),
    };
  }
  return series;
}
