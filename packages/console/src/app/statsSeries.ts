import type { StatsInterval } from '../api/BrowserdeckApi.ts';
import type { StatsPoint } from '../api/types.ts';

/** The periods the stats screen offers, with their bucket size. */
export const STATS_PERIODS = [
  { id: '24h', label: 'Last 24 hours', interval: 'hour', buckets: 24 },
  { id: '7d', label: 'Last 7 days', interval: 'day', buckets: 7 },
  { id: '30d', label: 'Last 30 days', interval: 'day', buckets: 30 },
] as const satisfies ReadonlyArray<{ id: string; label: string; interval: StatsInterval; buckets: number }>;

/** One of `STATS_PERIODS`. */
export type StatsPeriod = (typeof STATS_PERIODS)[number];

const BUCKET_MS: Record<StatsInterval, number> = { hour: 3_600_000, day: 86_400_000 };

/** The query window of a period ending now: whole UTC buckets, the current one included. */
export function statsWindow(period: StatsPeriod, now: number): { from: Date; to: Date } {
  const size = BUCKET_MS[period.interval];
  const to = Math.floor(now / size) * size + size;
  return { from: new Date(to - period.buckets * size), to: new Date(to) };
}

/** A chart's columns: every bucket of the window (those the answer leaves out count 0), in seconds. */
export interface ChartColumns {
  times: number[];
  created: number[];
  browserSec: number[];
}

/** The window's buckets with the answer's numbers, whether the answer lists empty buckets or not. */
export function chartColumns(
  series: readonly StatsPoint[],
  window: { from: Date; to: Date },
  interval: StatsInterval,
): ChartColumns {
  const size = BUCKET_MS[interval];
  const byStart = new Map<number, StatsPoint>();
  for (const point of series) {
    const start = Date.parse(point.start);
    if (Number.isFinite(start)) byStart.set(Math.floor(start / size) * size, point);
  }
  const columns: ChartColumns = { times: [], created: [], browserSec: [] };
  for (let start = window.from.getTime(); start < window.to.getTime(); start += size) {
    const point = byStart.get(start);
    columns.times.push(start / 1000);
    columns.created.push(point?.created ?? 0);
    columns.browserSec.push(point?.browserSec ?? 0);
  }
  return columns;
}
