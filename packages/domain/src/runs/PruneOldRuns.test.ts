import {
  aRun,
  InMemoryRunLogStore,
  InMemoryRunRepository,
  ManualClock,
  type RunOverrides,
} from '@browserdeck/testing';
import { describe, expect, it } from 'vitest';
import { PruneOldRuns, RUN_RETENTION_DAYS_DEFAULT } from './PruneOldRuns.ts';
import type { RunLogLine } from './RunLogStore.ts';

const DAY = 86_400_000;
const NOW = new Date('2026-06-30T12:00:00.000Z');
const daysAgo = (days: number) => new Date(NOW.getTime() - days * DAY);

const lines = (n: number): RunLogLine[] =>
  Array.from({ length: n }, (_, i) => ({
    seq: i + 1,
    timestamp: NOW,
    stream: 'stdout' as const,
    message: `line ${i + 1}`,
  }));

/** Counts the calls a batch makes, so a test can tell the work was split. */
class CountingRuns extends InMemoryRunRepository {
  listed: number[] = [];
  deleted: number[] = [];
  override async listEndedBefore(endedBefore: Date, limit: number) {
    const ids = await super.listEndedBefore(endedBefore, limit);
    this.listed.push(ids.length);
    return ids;
  }
  override async deleteEnded(runIds: readonly string[]) {
    const n = await super.deleteEnded(runIds);
    this.deleted.push(n);
    return n;
  }
}

class CountingLogs extends InMemoryRunLogStore {
  calls: number[] = [];
  override async deleteOfRuns(runIds: readonly string[], limit: number) {
    const n = await super.deleteOfRuns(runIds, limit);
    this.calls.push(n);
    return n;
  }
}

async function setUp(options: { retentionDays?: number; batchSize?: number; logBatchSize?: number } = {}) {
  const clock = new ManualClock(NOW.toISOString());
  const runs = new CountingRuns();
  const runLogs = new CountingLogs();
  const prune = new PruneOldRuns({ runs, runLogs, clock, ...options });
  /** Stores a run and `logLines` lines of it. */
  const given = async (overrides: RunOverrides, logLines = 2) => {
    const run = aRun(overrides);
    await runs.add(run);
    await runLogs.append(run.id, lines(logLines));
    return run;
  };
  return { clock, runs, runLogs, prune, given };
}

describe('PruneOldRuns', () => {
  it('deletes terminal runs that ended more than 30 days ago, with their logs, and keeps the rest', async () => {
    const { prune, runs, runLogs, given } = await setUp();
    expect(prune.retentionDays).toBe(RUN_RETENTION_DAYS_DEFAULT);
    const old = [
      await given({ status: 'SUCCEEDED', now: daysAgo(90), endedAt: daysAgo(31) }),
      await given({ status: 'FAILED', now: daysAgo(40), endedAt: daysAgo(30.01) }),
      await given({ status: 'TIMED_OUT', now: daysAgo(35) }),
      await given({ status: 'CANCELED', now: daysAgo(365) }, 0),
    ];
    // Created long ago but ended recently, ended just inside the retention, still active: all kept.
    const kept = [
      await given({ status: 'SUCCEEDED', now: daysAgo(60), endedAt: daysAgo(29) }),
      await given({ status: 'FAILED', now: daysAgo(30), endedAt: daysAgo(29.99) }),
      await given({ status: 'QUEUED', now: daysAgo(400) }),
      await given({ status: 'RUNNING', now: daysAgo(400) }),
    ];
    expect(await prune.execute()).toEqual({ runs: 4, logLines: 6 });
    expect(
      runs
        .all()
        .map((r) => r.id)
        .sort(),
    ).toEqual(kept.map((r) => r.id).sort());
    for (const run of old) expect(runLogs.linesOf(run.id)).toEqual([]);
    for (const run of kept) expect(runLogs.linesOf(run.id)).toHaveLength(2);
    // Nothing more to do the next time.
    expect(await prune.execute()).toEqual({ runs: 0, logLines: 0 });
  });

  it('works in batches: runs batchSize at a time, their logs logBatchSize lines per call, logs first', async () => {
    const { prune, runs, runLogs, given } = await setUp({ batchSize: 3, logBatchSize: 4 });
    for (let i = 0; i < 7; i++) await given({ status: 'SUCCEEDED', now: daysAgo(100 - i) }, 3);
    const order: string[] = [];
    const deleteOfRuns = runLogs.deleteOfRuns.bind(runLogs);
    runLogs.deleteOfRuns = (ids, limit) => {
      order.push('logs');
      return deleteOfRuns(ids, limit);
    };
    const deleteEnded = runs.deleteEnded.bind(runs);
    runs.deleteEnded = (ids) => {
      order.push('runs');
      return deleteEnded(ids);
    };
    expect(await prune.execute()).toEqual({ runs: 7, logLines: 21 });
    expect(runs.listed).toEqual([3, 3, 1]);
    expect(runs.deleted).toEqual([3, 3, 1]);
    // 9 lines of a batch of 3 runs: 4 + 4 + 1; the last batch's 3 lines in one call.
    expect(runLogs.calls).toEqual([4, 4, 1, 4, 4, 1, 3]);
    expect(order).toEqual(['logs', 'logs', 'logs', 'runs', 'logs', 'logs', 'logs', 'runs', 'logs', 'runs']);
    expect(runs.all()).toEqual([]);
  });

  it('counts the retention from the clock, in RUN_RETENTION_DAYS', async () => {
    const { prune, runs, clock, given } = await setUp({ retentionDays: 7 });
    const run = await given({ status: 'SUCCEEDED', now: daysAgo(8), endedAt: daysAgo(6) });
    expect((await prune.execute()).runs).toBe(0);
    clock.advance(1 * DAY + 1);
    expect((await prune.execute()).runs).toBe(1);
    expect(await runs.findById(run.id)).toBeNull();
  });

  it('stops between batches when told to', async () => {
    const { prune, runs, given } = await setUp({ batchSize: 2 });
    for (let i = 0; i < 5; i++) await given({ status: 'SUCCEEDED', now: daysAgo(100) });
    let batches = 0;
    const report = await prune.execute({ stopped: () => batches++ >= 1 });
    expect(report.runs).toBe(2);
    expect(runs.all()).toHaveLength(3);
  });

  it('gives up on a batch it cannot delete instead of listing it again forever', async () => {
    const { prune, runs, given } = await setUp({ batchSize: 2 });
    for (let i = 0; i < 3; i++) await given({ status: 'SUCCEEDED', now: daysAgo(100) });
    runs.deleteEnded = async () => 0;
    expect(await prune.execute()).toEqual({ runs: 0, logLines: 4 });
    expect(runs.listed).toEqual([2]);
  });

  it('refuses a retention of 0 days or past 10 years, and batch sizes that are no positive integers', () => {
    const deps = {
      runs: new InMemoryRunRepository(),
      runLogs: new InMemoryRunLogStore(),
      clock: new ManualClock(),
    };
    expect(() => new PruneOldRuns({ ...deps, retentionDays: 0 })).toThrow(RangeError);
    expect(() => new PruneOldRuns({ ...deps, retentionDays: 3651 })).toThrow(RangeError);
    expect(() => new PruneOldRuns({ ...deps, batchSize: 0 })).toThrow(RangeError);
    expect(() => new PruneOldRuns({ ...deps, logBatchSize: 1.5 })).toThrow(RangeError);
  });
});
