import type { StopSignal } from '../shared/StopSignal.ts';

/**
 * Wakes readers of a run (a `wait` long-poll, a log stream) when it may have changed: a status, new
 * log lines. Within one process a change wakes them at once; readers also wake after `maxWaitMs`
 * and look again, which is what carries changes made by another instance.
 */
export interface RunChanges {
  /** Says `runId` may have changed. */
  notify(runId: string): void;
  /**
   * Resolves when `runId` is notified, after `maxWaitMs`, or when `signal` aborts, whichever comes
   * first. Never rejects.
   */
  next(runId: string, maxWaitMs: number, signal?: StopSignal): Promise<void>;
}
