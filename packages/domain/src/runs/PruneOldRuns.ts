import type { Clock } from '../shared/Clock.ts';
import type { RunLogStore } from './RunLogStore.ts';
import type { RunRepository } from './RunRepository.ts';

/** Default of `RUN_RETENTION_DAYS`: a run and its logs are kept 30 days after it ended. */
export const RUN_RETENTION_DAYS_DEFAULT = 30;
/** Longest `RUN_RETENTION_DAYS` (10 years); the shortest is 1 day. */
export const RUN_RETENTION_DAYS_MAX = 3650;
/** Runs deleted per statement by default: a few hundred, so no statement holds a lock for long. */
export const RUN_PRUNE_BATCH_SIZE = 200;
/** Log lines deleted per statement by default (a run may hold many thousands). */
export const RUN_LOG_PRUNE_BATCH_SIZE = 5000;
/** Batches of runs one pass deletes at most; what is left waits for the next pass. */
const MAX_BATCHES_PER_PASS = 500;

const DAY_MS = 86_400_000;

/** What PruneOldRuns needs. */
export interface PruneOldRunsDeps {
  runs: RunRepository;
  runLogs: RunLogStore;
  clock: Clock;
  /** Days a run is kept after it ended (`RUN_RETENTION_DAYS`; default `RUN_RETENTION_DAYS_DEFAULT`). */
  retentionDays?: number | undefined;
  /** Runs per batch (default `RUN_PRUNE_BATCH_SIZE`). */
  batchSize?: number | undefined;
  /** Log lines per delete statement (default `RUN_LOG_PRUNE_BATCH_SIZE`). */
  logBatchSize?: number | undefined;
}

/** What one pass deleted. */
export interface PruneOldRunsReport {
  readonly runs: number;
  readonly logLines: number;
}

/**
 * Deletes the runs that ended more than `retentionDays` ago, and their logs (http-api.md §11,
 * "Retention"), in batches that hold no long lock: the ids of `batchSize` of the longest-ended runs,
 * their log lines `logBatchSize` at a time, then those runs, until none is left (or `stopped()` says
 * so between batches). A QUEUED or RUNNING run is never deleted, however old. Returns what it deleted.
 */
export class PruneOldRuns {
  /** Days a run is kept after it ended. */
  readonly retentionDays: number;
  private readonly deps: PruneOldRunsDeps;
  private readonly batchSize: number;
  private readonly logBatchSize: number;

  constructor(deps: PruneOldRunsDeps) {
    const retentionDays = deps.retentionDays ?? RUN_RETENTION_DAYS_DEFAULT;
    if (!(retentionDays > 0 && retentionDays <= RUN_RETENTION_DAYS_MAX))
      throw new RangeError(`retentionDays must be more than 0 and at most ${RUN_RETENTION_DAYS_MAX}`);
    this.deps = deps;
    this.retentionDays = retentionDays;
    this.batchSize = positiveInteger(deps.batchSize ?? RUN_PRUNE_BATCH_SIZE, 'batchSize');
    this.logBatchSize = positiveInteger(deps.logBatchSize ?? RUN_LOG_PRUNE_BATCH_SIZE, 'logBatchSize');
  }

  async execute(input: { stopped?: () => boolean } = {}): Promise<PruneOldRunsReport> {
    const { runs, runLogs, clock } = this.deps;
    const stopped = input.stopped ?? (() => false);
    const endedBefore = new Date(clock.now().getTime() - this.retentionDays * DAY_MS);
    let deletedRuns = 0;
    let logLines = 0;
    for (let batch = 0; batch < MAX_BATCHES_PER_PASS && !stopped(); batch++) {
      const ids = await runs.listEndedBefore(endedBefore, this.batchSize);
      if (ids.length === 0) break;
      // The logs first, a bounded batch per statement, then the runs: every statement stays short
      // (the runs' cascade then has no lines left to remove).
      for (;;) {
        const deleted = await runLogs.deleteOfRuns(ids, this.logBatchSize);
        logLines += deleted;
        if (deleted < this.logBatchSize) break;
      }
      const deleted = await runs.deleteEnded(ids);
      deletedRuns += deleted;
      // Nothing deleted would list the same ids again: stop rather than go round.
      if (ids.length < this.batchSize || deleted === 0) break;
    }
    return { runs: deletedRuns, logLines };
  }
}

function positiveInteger(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer`);
  return value;
}
