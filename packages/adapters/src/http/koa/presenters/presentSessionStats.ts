import type { SessionStats } from '@browserdeck/domain';
import type { z } from 'zod';
import type { SessionStatsSchema } from '../schemas/sessionSchemas.ts';

/** The JSON of a project's session statistics. */
export type SessionStatsJson = z.output<typeof SessionStatsSchema>;

/** Session statistics as the API shows them: exactly the documented fields, in that order. */
export function presentSessionStats(stats: SessionStats): SessionStatsJson {
  const { PENDING, RUNNING, COMPLETED, ERROR, TIMED_OUT } = stats.byStatus;
  return {
    total: stats.total,
    byStatus: { PENDING, RUNNING, COMPLETED, ERROR, TIMED_OUT },
    createdLast24h: stats.createdLast24h,
    avgDurationSec: stats.avgDurationSec,
    totalBrowserSec: stats.totalBrowserSec,
  };
}
