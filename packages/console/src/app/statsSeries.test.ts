import { describe, expect, it } from 'vitest';
import { chartColumns, STATS_PERIODS, statsWindow } from './statsSeries.ts';

const at = (iso: string) => Date.parse(iso);
const [day, week] = [STATS_PERIODS[0], STATS_PERIODS[1]];

describe('stats over time', () => {
  it('asks for whole UTC buckets ending after the current one', () => {
    expect(statsWindow(day, at('2026-03-10T10:25:00Z'))).toEqual({
      from: new Date('2026-03-09T11:00:00Z'),
      to: new Date('2026-03-10T11:00:00Z'),
    });
    expect(statsWindow(week, at('2026-03-10T10:25:00Z'))).toEqual({
      from: new Date('2026-03-04T00:00:00Z'),
      to: new Date('2026-03-11T00:00:00Z'),
    });
  });

  it('charts every bucket of the window, zero where the answer has none', () => {
    const window = statsWindow(week, at('2026-03-10T10:25:00Z'));
    const columns = chartColumns(
      [
        {
          start: '2026-03-05T00:00:00.000Z',
          created: 3,
          completed: 2,
          errored: 1,
          timedOut: 0,
          browserSec: 120,
          proxyBytes: 0,
        },
        {
          start: '2026-03-10T00:00:00.000Z',
          created: 1,
          completed: 0,
          errored: 0,
          timedOut: 0,
          browserSec: 30.5,
          proxyBytes: 0,
        },
        // Outside the window: left out.
        {
          start: '2026-02-01T00:00:00.000Z',
          created: 9,
          completed: 9,
          errored: 0,
          timedOut: 0,
          browserSec: 9,
          proxyBytes: 0,
        },
      ],
      window,
      'day',
    );
    expect(columns.times).toEqual(
      ['04', '05', '06', '07', '08', '09', '10'].map((d) => at(`2026-03-${d}T00:00:00Z`) / 1000),
    );
    expect(columns.created).toEqual([0, 3, 0, 0, 0, 0, 1]);
    expect(columns.browserSec).toEqual([0, 120, 0, 0, 0, 0, 30.5]);
  });
});
