/** Bucket widths of the stats series (http-api.md §14). The HTTP schema imports the list. */
export const STATS_INTERVALS = ['hour', 'day'] as const;
export type StatsInterval = (typeof STATS_INTERVALS)[number];

/**
 * Which stats buckets to compute (http-api.md §14): UTC hours or days from the one holding `from`,
 * every bucket that starts before `to`. `statsSeriesBuckets` says which; `now` closes the browser
 * time of active sessions, as in `SessionRepository.stats`.
 */
export interface StatsSeriesQuery {
  readonly interval: StatsInterval;
  readonly from: Date;
  /** Exclusive: a bucket starting at `to` is not part of the series. */
  readonly to: Date;
  readonly now: Date;
}

/**
 * One bucket of a project's stats series. Each session counts in the bucket that holds the moment
 * named: `created` by `createdAt`; `completed`, `errored`, `timedOut` by `endedAt`, for sessions
 * with that final status. `browserSec` is the part of each session's browser time,
 * [startedAt, endedAt or now), that lies inside the bucket, so the buckets add up to `totalBrowserSec`.
 */
export interface StatsBucket {
  /** The bucket's first instant, on a UTC hour or day. */
  readonly start: Date;
  readonly created: number;
  readonly completed: number;
  readonly errored: number;
  readonly timedOut: number;
  readonly browserSec: number;
  /** Proxy bytes of the sessions created in the bucket (by `createdAt`, as `created` counts them). */
  readonly proxyBytes: number;
}
