import type { SessionStatsReport, StatsBucket } from '@browserdeck/domain';
import type { z } from 'zod';
import { isoTimestamp } from '../shared/isoTimestamp.ts';
import type { SessionStatsSchema, StatsBucketSchema } from './sessionSchemas.ts';

/** The JSON of a project's session statistics. */
export type SessionStatsJson = z.output<typeof SessionStatsSchema>;

/** The JSON of one bucket of the stats series. */
export type StatsBucketJson = z.output<typeof StatsBucketSchema>;

/**
 * Session statistics as the API shows them: exactly the documented fields, in that order; `series`
 * only when the request asked for one (http-api.md §14), so an answer without it is as before.
 */
export function presentSessionStats(stats: SessionStatsReport): SessionStatsJson {
  const { PENDING, RUNNING, COMPLETED, ERROR, TIMED_OUT } = stats.byStatus;
  return {
    total: stats.total,
    byStatus: { PENDING, RUNNING, COMPLETED, ERROR, TIMED_OUT },
    createdLast24h: stats.createdLast24h,
    avgDurationSec: stats.avgDurationSec,
    totalBrowserSec: stats.totalBrowserSec,
    totalProxyBytes: stats.totalProxyBytes,
    ...(stats.series ? { series: stats.series.map(presentStatsBucket) } : {}),
  };
}

function presentStatsBucket(bucket: StatsBucket): StatsBucketJson {
  const { created, completed, errored, timedOut, browserSec, proxyBytes } = bucket;
  return { start: isoTimestamp(bucket.start), created, completed, errored, timedOut, browserSec, proxyBytes };
}
