import { Checks } from '../shared/checks.ts';
import {
  STATS_INTERVALS,
  type StatsBucket,
  type StatsInterval,
  type StatsSeriesQuery,
} from './StatsSeries.ts';

/** Most buckets one series may hold (83 days of hours, 5 years of days); more is a 400 naming `from`. */
export const STATS_SERIES_MAX_BUCKETS = 2000;

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** A bucket's width in milliseconds: UTC hours and days have no daylight-saving jumps. */
export const STATS_INTERVAL_MS: Readonly<Record<StatsInterval, number>> = { hour: HOUR_MS, day: DAY_MS };

/** How far before `to` the series starts when the request names no `from`: 24 hours, 30 days. */
export const STATS_DEFAULT_SPAN_MS: Readonly<Record<StatsInterval, number>> = {
  hour: 24 * HOUR_MS,
  day: 30 * DAY_MS,
};

/** The buckets a query covers: the first one's start (epoch ms), their width and how many. */
export interface StatsSeriesBuckets {
  readonly start: number;
  readonly width: number;
  readonly count: number;
}

/**
 * The buckets of `query`: from the UTC hour or day that holds `from`, every bucket that starts
 * before `to` (`to` is exclusive), at least one. Buckets are counted whole, so a bucket's figures
 * never depend on where inside it `from` or `to` fall.
 */
export function statsSeriesBuckets(
  query: Pick<StatsSeriesQuery, 'interval' | 'from' | 'to'>,
): StatsSeriesBuckets {
  const width = STATS_INTERVAL_MS[query.interval];
  const start = Math.floor(query.from.getTime() / width) * width;
  const count = Math.max(1, Math.ceil((query.to.getTime() - start) / width));
  return { start, width, count };
}

/** Every bucket of `query` with zeros, oldest first: what a store fills in. */
export function emptyStatsSeries(query: Pick<StatsSeriesQuery, 'interval' | 'from' | 'to'>): StatsBucket[] {
  const { start, width, count } = statsSeriesBuckets(query);
  return Array.from({ length: count }, (_, i) => ({
    start: new Date(start + i * width),
    created: 0,
    completed: 0,
    errored: 0,
    timedOut: 0,
    browserSec: 0,
    proxyBytes: 0,
  }));
}

/** What a caller may ask of the series: all optional; `from` and `to` only with `interval`. */
export interface StatsSeriesRequest {
  interval?: StatsInterval | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
}

/**
 * The series query a request asks for at `now`, or null when it names no `interval`. `to` defaults
 * to `now`, `from` to `to` minus `STATS_DEFAULT_SPAN_MS`. Refuses, naming the field: `from` or `to`
 * without `interval`, an invalid date, `from` not before `to`, and more than
 * `STATS_SERIES_MAX_BUCKETS` buckets.
 */
export function statsSeriesQuery(request: StatsSeriesRequest, now: Date): StatsSeriesQuery | null {
  const checks = new Checks();
  const { interval } = request;
  for (const field of ['from', 'to'] as const) {
    const value = request[field];
    if (value === undefined) continue;
    checks.require(interval !== undefined, field, 'is only allowed with interval (hour or day)');
    checks.require(!Number.isNaN(value.getTime()), field, 'must be a valid date and time');
  }
  checks.require(
    interval === undefined || (STATS_INTERVALS as readonly string[]).includes(interval),
    'interval',
    `must be one of ${STATS_INTERVALS.join(', ')}`,
  );
  checks.throwIfAny();
  if (interval === undefined) return null;

  const to = request.to ?? now;
  const from = request.from ?? new Date(to.getTime() - STATS_DEFAULT_SPAN_MS[interval]);
  checks.require(from.getTime() < to.getTime(), 'from', 'must be before to');
  checks.throwIfAny();
  const { count } = statsSeriesBuckets({ interval, from, to });
  checks.require(
    count <= STATS_SERIES_MAX_BUCKETS,
    'from',
    `must be within ${STATS_SERIES_MAX_BUCKETS} ${interval}s of to (this span holds ${count} ${interval} buckets)`,
  );
  checks.throwIfAny();
  return { interval, from, to, now };
}
