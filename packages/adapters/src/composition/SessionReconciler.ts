import { type Clock, type ReconcileSessions, SystemClock, syncRetryPolicy } from '@browserdeck/domain';
import type { Logger } from 'pino';
import { PeriodicPass } from './lifecycle/PeriodicPass.ts';

/** Options of the background reconciler. */
export interface SessionReconcilerOptions {
  reconcile: Pick<ReconcileSessions, 'execute'>;
  logger: Logger;
  intervalSec: number;
  /** Sessions claimed per pass (default 50); a full batch is followed at once by another. */
  batchSize?: number;
  /** Provider calls in flight at once (default 4). */
  concurrency?: number;
  /** The clock `reconcile` stamps `lastSyncedAt` with, for each pass's cut-off (default: system time). */
  clock?: Clock;
}

/**
 * Keeps active sessions' status fresh: every `intervalSec` (a `PeriodicPass`) it runs
 * `ReconcileSessions` in bounded batches until a batch comes back short. Passes never overlap;
 * `stop()` waits for the running one. A session whose refresh fails is retried with back-off from
 * `intervalSec` up to 5 minutes, and ended as `ERROR` when its refresh keeps failing to be stored
 * (`syncRetryPolicy`, docs/decisions.md).
 */
export class SessionReconciler {
  private readonly options: SessionReconcilerOptions;
  private readonly loop: PeriodicPass;

  constructor(options: SessionReconcilerOptions) {
    this.options = options;
    this.loop = new PeriodicPass({
      pass: (stopped) => this.pass(stopped),
      intervalMs: options.intervalSec * 1000,
      onError: (error) => options.logger.warn({ err: error }, 'session reconcile pass failed'),
    });
  }

  start(): void {
    this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** One full pass over what is due; exposed for tests. */
  runOnce(): Promise<void> {
    return this.pass(() => this.loop.stopped);
  }

  /**
   * One last full pass, also once stopped (after waiting for a pass in progress): at shutdown, the
   * sessions the provider has just ended are stored with their end, not left RUNNING until expiry.
   */
  async flush(): Promise<void> {
    await this.loop.running;
    await this.pass(() => false);
  }

  private async pass(stopped: () => boolean): Promise<void> {
    const { batchSize = 50, concurrency = 4, intervalSec } = this.options;
    // A claim outlives a slow pass, so no other instance refreshes the same sessions meanwhile.
    const leaseSec = Math.max(30, intervalSec * 2);
    // Sessions refreshed after this (by this pass or another instance) wait for the next pass: without
    // the cut-off a pass over more than one batch re-claims the sessions it has just refreshed.
    const syncedBefore = (this.options.clock ?? new SystemClock()).now();
    const retry = syncRetryPolicy(intervalSec);
    for (let round = 0; round < 100 && !stopped(); round++) {
      const report = await this.options.reconcile.execute({
        batchSize,
        concurrency,
        leaseSec,
        syncedBefore,
        retry,
      });
      if (report.claimed > 0) this.options.logger.debug(report, 'reconciled sessions');
      if (report.claimed < batchSize) return;
    }
  }
}
