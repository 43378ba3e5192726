import type { StopSignal } from '../shared/StopSignal.ts';
import type { RunChanges } from './RunChanges.ts';
import { StopSource } from './StopSource.ts';

/** A waiter for the next change of a run; `stop()` drops it (and its timer) once it is not needed. */
export interface RunWatch {
  readonly changed: Promise<void>;
  stop(): void;
}

/**
 * Starts waiting for the next change of `runId` (at most `maxWaitMs`, or until `signal` aborts). Put
 * the waiter in place BEFORE reading the run again: a change stored between that read and the wait
 * would otherwise go unnoticed until the wait is over.
 */
export function watchRun(
  changes: RunChanges,
  runId: string,
  maxWaitMs: number,
  signal?: StopSignal,
): RunWatch {
  const source = new StopSource(signal);
  const changed = changes.next(runId, maxWaitMs, source);
  return {
    changed,
    stop: () => {
      source.abort();
      source.dispose();
    },
  };
}
