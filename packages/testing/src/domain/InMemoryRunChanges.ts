import type { RunChanges, StopSignal } from '@browserdeck/domain';

type Waiter = { runId: string; wake: () => void };

// The runtime's timers, declared here: the domain's tests compile this file without Node's types.
declare function setTimeout(callback: () => void, ms: number): unknown;
declare function clearTimeout(timer: unknown): void;

/**
 * Run changes in one process, for tests: `notify` wakes every `next` waiting on the run at once;
 * otherwise `next` resolves after `maxWaitMs` of real time, or when its signal aborts. It records
 * notifications and waits that ran out (`timedOut`: a reader that missed a wake-up shows there), and
 * lets a test act when someone starts to wait (`onWait`, `untilWaiting`).
 */
export class InMemoryRunChanges implements RunChanges {
  /** Every `notify`, in order. */
  readonly notified: string[] = [];
  /** The run of every `next` that resolved because its `maxWaitMs` ran out, in order. */
  readonly timedOut: string[] = [];
  /**
   * Called as a reader starts to wait on `runId` for `maxWaitMs`: a test may move its clock or
   * change and `notify` the run here, so the reader wakes without any real time passing.
   */
  onWait: ((runId: string, maxWaitMs: number) => void) | null = null;
  private waiters: Waiter[] = [];
  private readonly watchers: Array<{ runId: string; resolve: () => void }> = [];

  notify(runId: string): void {
    this.notified.push(runId);
    const woken = this.waiters.filter((w) => w.runId === runId);
    this.waiters = this.waiters.filter((w) => w.runId !== runId);
    for (const waiter of woken) waiter.wake();
  }

  next(runId: string, maxWaitMs: number, signal?: StopSignal): Promise<void> {
    return new Promise<void>((resolve) => {
      if (signal?.aborted) return resolve();
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        this.waiters = this.waiters.filter((w) => w !== waiter);
        resolve();
      };
      const waiter: Waiter = { runId, wake: done };
      const timer = setTimeout(
        () => {
          this.timedOut.push(runId);
          done();
        },
        Math.max(0, maxWaitMs),
      );
      signal?.addEventListener('abort', done, { once: true });
      this.waiters.push(waiter);
      for (const watcher of this.watchers.filter((w) => w.runId === runId)) {
        this.watchers.splice(this.watchers.indexOf(watcher), 1);
        watcher.resolve();
      }
      this.onWait?.(runId, maxWaitMs);
    });
  }

  /** How many readers wait on `runId` now. */
  waitingOn(runId: string): number {
    return this.waiters.filter((w) => w.runId === runId).length;
  }

  /** Resolves once a reader waits on `runId` (at once when one already does). */
  untilWaiting(runId: string): Promise<void> {
    if (this.waitingOn(runId) > 0) return Promise.resolve();
    return new Promise((resolve) => this.watchers.push({ runId, resolve }));
  }
}
