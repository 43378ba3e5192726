import type { RunChanges, StopSignal } from '@browserdeck/domain';

/**
 * Run changes within one process: `notify` wakes every reader waiting on the run at once; a reader
 * otherwise wakes after `maxWaitMs` and looks again. With several instances (PostgreSQL), changes
 * made by another instance are seen at a reader's next look: `lookAgainMs` bounds the wait, so a
 * long-poll sees another instance's run end within that time, not at the end of its wait.
 */
export class InProcessRunChanges implements RunChanges {
  private readonly waiting = new Map<string, Set<() => void>>();
  private readonly lookAgainMs: number;

  constructor(options: { lookAgainMs?: number | undefined } = {}) {
    this.lookAgainMs = options.lookAgainMs ?? Number.POSITIVE_INFINITY;
  }

  notify(runId: string): void {
    const wakers = this.waiting.get(runId);
    if (!wakers) return;
    this.waiting.delete(runId);
    for (const wake of wakers) wake();
  }

  next(runId: string, maxWaitMs: number, signal?: StopSignal): Promise<void> {
    if (signal?.aborted) return Promise.resolve();
    return new Promise<void>((resolve) => {
      let wakers = this.waiting.get(runId);
      if (!wakers) {
        wakers = new Set();
        this.waiting.set(runId, wakers);
      }
      const own = wakers;
      const wake = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', wake);
        own.delete(wake);
        if (own.size === 0 && this.waiting.get(runId) === own) this.waiting.delete(runId);
        resolve();
      };
      // Unref'd: a reader's look-again timer must not hold a closing process open.
      const timer = setTimeout(wake, Math.max(0, Math.min(maxWaitMs, this.lookAgainMs)));
      timer.unref();
      signal?.addEventListener('abort', wake, { once: true });
      own.add(wake);
    });
  }

  /** How many readers wait on `runId` now. */
  waitingOn(runId: string): number {
    return this.waiting.get(runId)?.size ?? 0;
  }
}
