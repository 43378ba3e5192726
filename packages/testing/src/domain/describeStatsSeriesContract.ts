import type {
  BrowserSession,
  SessionRepository,
  SessionStatus,
  StatsBucket,
  StatsSeriesQuery,
} from '@browserdeck/domain';
import { describe, expect, it } from 'vitest';

/** The fields of a session these cases set. */
interface SeriesSessionSpec {
  projectId?: string;
  status?: SessionStatus;
  createdAt?: Date;
  startedAt?: Date;
  endedAt?: Date | null;
}

/** What the session repository contract lends these cases: its store setup and session factory. */
export interface StatsSeriesContractContext {
  /** A fresh store in which `projectId` and `otherProjectId` exist. */
  setUp(): Promise<SessionRepository>;
  session(spec: SeriesSessionSpec): BrowserSession;
  projectId: string;
  otherProjectId: string;
}

const SEC = 1000;
const MIN = 60 * SEC;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
/** A UTC midnight; the hour cases look at 10:00 to 13:00 of that day. */
const D0 = Date.parse('2026-03-02T00:00:00.000Z');
const at = (h: number, m = 0, s = 0, ms = 0) => new Date(D0 + h * HOUR + m * MIN + s * SEC + ms);

const counts = (series: StatsBucket[]) =>
  series.map(({ created, completed, errored, timedOut }) => ({ created, completed, errored, timedOut }));
const seconds = (series: StatsBucket[]) => series.map((b) => b.browserSec);
const starts = (series: StatsBucket[]) => series.map((b) => b.start.toISOString());

/**
 * `SessionRepository.statsSeries` (http-api.md §14): bucket edges (start inclusive, end exclusive,
 * `to` exclusive, buckets counted whole), empty buckets as zeros, the three final statuses by
 * `endedAt`, browser time cut at bucket edges with running sessions up to now, project scoping,
 * and agreement with `stats().totalBrowserSec`.
 */
export function describeStatsSeriesContract(context: StatsSeriesContractContext): void {
  const { setUp, session, projectId: P1, otherProjectId: P2 } = context;
  const hours = (from: Date, to: Date, now = at(20)): StatsSeriesQuery => ({
    interval: 'hour',
    from,
    to,
    now,
  });

  describe('statistics over time', () => {
    it('answers every bucket as zeros, oldest first, from the UTC hour or day holding from to before to', async () => {
      const sessions = await setUp();
      const hourly = await sessions.statsSeries(P1, hours(at(10, 30), at(13)));
      expect(starts(hourly)).toEqual([
        '2026-03-02T10:00:00.000Z',
        '2026-03-02T11:00:00.000Z',
        '2026-03-02T12:00:00.000Z',
      ]);
      expect(hourly.every((b) => b.created + b.completed + b.errored + b.timedOut + b.browserSec === 0)).toBe(
        true,
      );
      const daily = await sessions.statsSeries(P1, {
        interval: 'day',
        from: at(5),
        to: new Date(D0 + 2 * DAY + 1),
        now: at(20),
      });
      expect(starts(daily)).toEqual([
        '2026-03-02T00:00:00.000Z',
        '2026-03-03T00:00:00.000Z',
        '2026-03-04T00:00:00.000Z',
      ]);
      expect(seconds(daily)).toEqual([0, 0, 0]);
      // A `to` inside a bucket keeps that bucket; one span shorter than a bucket is one bucket.
      expect(starts(await sessions.statsSeries(P1, hours(at(10, 59), at(11, 0, 0, 1))))).toEqual([
        '2026-03-02T10:00:00.000Z',
        '2026-03-02T11:00:00.000Z',
      ]);
      expect(starts(await sessions.statsSeries(P1, hours(at(10, 1), at(10, 2))))).toEqual([
        '2026-03-02T10:00:00.000Z',
      ]);
    });

    it('counts a creation in the bucket holding createdAt: a bucket starts inclusive and ends exclusive', async () => {
      const sessions = await setUp();
      const running = (createdAt: Date) =>
        session({ status: 'RUNNING', createdAt, startedAt: at(20), endedAt: null });
      for (const createdAt of [
        at(9, 59, 59, 999), // before the first bucket
        at(10), // first instant of bucket 0
        at(10, 59, 59, 999), // last instant of bucket 0
        at(12), // bucket 2; bucket 1 stays empty
        at(12, 45), // after `to` but inside the last bucket, which counts whole
        at(13), // the first instant after the last bucket
      ]) {
        await sessions.add(running(createdAt));
      }
      const series = await sessions.statsSeries(P1, hours(at(10), at(12, 30)));
      expect(counts(series)).toEqual([
        { created: 2, completed: 0, errored: 0, timedOut: 0 },
        { created: 0, completed: 0, errored: 0, timedOut: 0 },
        { created: 2, completed: 0, errored: 0, timedOut: 0 },
      ]);
      expect(seconds(series)).toEqual([0, 0, 0]);
    });

    it('counts COMPLETED, ERROR and TIMED_OUT in the bucket holding endedAt, whenever they were created', async () => {
      const sessions = await setUp();
      const ended = (status: SessionStatus, createdAt: Date, endedAt: Date) =>
        session({ status, createdAt, startedAt: createdAt, endedAt });
      await sessions.add(ended('COMPLETED', at(9, 30), at(10, 15)));
      await sessions.add(ended('ERROR', at(10, 10), at(11)));
      await sessions.add(ended('TIMED_OUT', at(11, 20), at(12, 59, 59, 999)));
      await sessions.add(ended('COMPLETED', at(11), at(11, 0, 0, 1)));
      await sessions.add(ended('ERROR', at(8), at(9, 59, 59, 999)));
      await sessions.add(ended('TIMED_OUT', at(12, 30), at(13)));
      // Active sessions have not ended: they count as created only.
      await sessions.add(session({ status: 'RUNNING', createdAt: at(12, 5), endedAt: null }));
      await sessions.add(session({ status: 'PENDING', createdAt: at(12, 6), endedAt: null }));

      const series = await sessions.statsSeries(P1, hours(at(10), at(13)));
      expect(counts(series)).toEqual([
        { created: 1, completed: 1, errored: 0, timedOut: 0 },
        { created: 2, completed: 1, errored: 1, timedOut: 0 },
        { created: 3, completed: 0, errored: 0, timedOut: 1 },
      ]);
    });

    it('splits browser time at bucket edges, counts running sessions up to now, and 0 s for time running backwards', async () => {
      const sessions = await setUp();
      const ran = (startedAt: Date, endedAt: Date | null, status: SessionStatus = 'COMPLETED') =>
        session({ status, createdAt: startedAt, startedAt, endedAt });
      await sessions.add(ran(at(10, 30), at(12, 15))); // 1800 + 3600 + 900
      await sessions.add(ran(at(8), at(10, 10))); // before the window: its last 600 s count
      await sessions.add(ran(at(12, 50), at(14), 'TIMED_OUT')); // after it: its first 600 s count
      await sessions.add(ran(at(11, 45), null, 'RUNNING')); // 900, then 1200 up to now (12:20)
      await sessions.add(ran(at(11), at(10, 30), 'ERROR')); // ended before it started: 0 s
      await sessions.add(ran(at(12, 30), null, 'PENDING')); // starts after now: 0 s

      const now = at(12, 20);
      const series = await sessions.statsSeries(P1, hours(at(10), at(13), now));
      const expected = [1800 + 600, 3600 + 900, 900 + 600 + 1200];
      seconds(series).forEach((sec, i) => {
        expect(sec).toBeCloseTo(expected[i]!, 3);
      });

      // Later, the running session has grown up to the window's end, and no further.
      const later = await sessions.statsSeries(P1, hours(at(10), at(13), at(15)));
      const grown = [1800 + 600, 3600 + 900, 900 + 600 + 3600 + 1800];
      seconds(later).forEach((sec, i) => {
        expect(sec).toBeCloseTo(grown[i]!, 3);
      });
    });

    it('counts whole buckets between a long session’s first and last, and nothing after it ends on an edge', async () => {
      const sessions = await setUp();
      const ran = (startedAt: Date, endedAt: Date) =>
        session({ status: 'COMPLETED', createdAt: startedAt, startedAt, endedAt });
      await sessions.add(ran(at(9, 30), at(14))); // whole 10:00 to 13:00, then ends on 14:00
      await sessions.add(ran(at(10, 15), at(13, 45))); // 2700, 3600, 3600, 2700
      await sessions.add(ran(at(11), at(17))); // whole from 11:00 past the window's end
      const series = await sessions.statsSeries(P1, hours(at(10), at(16)));
      expect(seconds(series)).toEqual([
        3600 + 2700,
        3600 + 3600 + 3600,
        3600 + 3600 + 3600,
        3600 + 2700 + 3600,
        3600,
        3600,
      ]);
      expect(series.map((b) => b.completed)).toEqual([0, 0, 0, 1, 1, 0]);
    });

    it('adds up to the browser time of stats() over a window that holds every session', async () => {
      const sessions = await setUp();
      const ran = (status: SessionStatus, startedAt: Date, endedAt: Date | null) =>
        session({ status, createdAt: startedAt, startedAt, endedAt });
      await sessions.add(ran('COMPLETED', at(1, 0, 0, 123), at(30, 0, 1)));
      await sessions.add(ran('ERROR', at(3, 7), at(3, 9, 30, 500)));
      await sessions.add(ran('RUNNING', at(40, 1), null));
      await sessions.add(ran('COMPLETED', at(5), at(4)));
      const now = at(47, 59);
      const hourly = await sessions.statsSeries(P1, hours(at(0), at(48), now));
      const daily = await sessions.statsSeries(P1, { interval: 'day', from: at(0), to: at(48), now });
      const total = (await sessions.stats(P1, now)).totalBrowserSec;
      expect(total).toBeCloseTo(29 * 3600 + 0.877 + 150.5 + 7 * 3600 + 58 * 60, 3);
      expect(hourly.reduce((sum, b) => sum + b.browserSec, 0)).toBeCloseTo(total, 3);
      expect(seconds(daily)).toHaveLength(2);
      expect(daily[0]!.browserSec).toBeCloseTo(23 * 3600 - 0.123 + 150.5, 3);
      expect(daily[1]!.browserSec).toBeCloseTo(6 * 3600 + 1 + 7 * 3600 + 58 * 60, 3);
      expect(hourly.reduce((sum, b) => sum + b.created, 0)).toBe(4);
    });

    it('counts only the project’s own sessions', async () => {
      const sessions = await setUp();
      await sessions.add(
        session({
          projectId: P2,
          status: 'COMPLETED',
          createdAt: at(10),
          startedAt: at(10),
          endedAt: at(11),
        }),
      );
      await sessions.add(
        session({ projectId: P2, status: 'ERROR', createdAt: at(10), startedAt: at(10), endedAt: at(10, 5) }),
      );
      await sessions.add(
        session({
          projectId: P2,
          status: 'TIMED_OUT',
          createdAt: at(11),
          startedAt: at(11),
          endedAt: at(12),
        }),
      );
      await sessions.add(session({ projectId: P2, status: 'RUNNING', createdAt: at(9), endedAt: null }));
      await sessions.add(
        session({ status: 'COMPLETED', createdAt: at(11), startedAt: at(11), endedAt: at(11, 1) }),
      );

      const series = await sessions.statsSeries(P1, hours(at(10), at(13)));
      expect(counts(series)).toEqual([
        { created: 0, completed: 0, errored: 0, timedOut: 0 },
        { created: 1, completed: 1, errored: 0, timedOut: 0 },
        { created: 0, completed: 0, errored: 0, timedOut: 0 },
      ]);
      expect(seconds(series)).toEqual([0, 60, 0]);
      expect(
        seconds(await sessions.statsSeries('0190c000-0000-7000-8000-0000000000a3', hours(at(10), at(12)))),
      ).toEqual([0, 0]);
    });

    it('buckets days on UTC midnight', async () => {
      const sessions = await setUp();
      // Across midnight: 1 h on the first day, 1.5 h on the second; ended on the second.
      await sessions.add(
        session({ status: 'COMPLETED', createdAt: at(23), startedAt: at(23), endedAt: at(25, 30) }),
      );
      await sessions.add(
        session({ status: 'ERROR', createdAt: at(47, 59, 59, 999), startedAt: at(48), endedAt: at(48, 1) }),
      );
      const series = await sessions.statsSeries(P1, {
        interval: 'day',
        from: at(12),
        to: at(48),
        now: at(72),
      });
      expect(starts(series)).toEqual(['2026-03-02T00:00:00.000Z', '2026-03-03T00:00:00.000Z']);
      expect(counts(series)).toEqual([
        { created: 1, completed: 0, errored: 0, timedOut: 0 },
        { created: 1, completed: 1, errored: 0, timedOut: 0 },
      ]);
      expect(seconds(series)).toEqual([3600, 5400]);
    });
  });
}
