import type { RunLogStream } from './runRules.ts';

/** One line of a run's logs (http-api.md §11). `seq` starts at 1 and grows by 1 per line of a run. */
export interface RunLogLine {
  readonly seq: number;
  readonly timestamp: Date;
  readonly stream: RunLogStream;
  readonly message: string;
}

/** Where runs' log lines are kept. One writer per run (its worker) assigns the `seq`s. */
export interface RunLogStore {
  /** Stores `lines` of `runId` (in `seq` order); a `seq` already stored is ignored, not doubled. */
  append(runId: string, lines: readonly RunLogLine[]): Promise<void>;
  /** The run's lines with `seq` greater than `afterSeq`, in `seq` order, at most `limit`. */
  read(runId: string, afterSeq: number, limit: number): Promise<RunLogLine[]>;
  /**
   * Deletes up to `limit` lines of the runs `runIds` (a bounded batch: a long run holds many lines);
   * returns how many it deleted, fewer than `limit` once those runs have none left.
   */
  deleteOfRuns(runIds: readonly string[], limit: number): Promise<number>;
}
