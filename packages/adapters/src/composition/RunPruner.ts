import type { PruneOldRuns } from '@browserdeck/domain';
import type { Logger } from 'pino';

/** Between two sweeps for runs past their retention by default: an hour. */
export const RUN_PRUNE_INTERVAL_MS = 60 * 60_000;
/** The first sweep after `start` by default: a minute, once the service is up. */
const FIRST_SWEEP_MS = 60_000;

/** Options of the background sweep for old runs. */
export interface RunPrunerOptions {
  prune: Pick<PruneOldRuns, 'execute'>;
  logger: Logger;
  /** Between sweeps, in milliseconds (default `RUN_PRUNE_INTERVAL_MS`). */
  intervalMs?: number | undefined;
  /** From `start` to the first sweep, in milliseconds (default a minute). */
  firstSweepMs?: number | undefined;
}

/**
 * Deletes runs and their logs past `RUN_RETENTION_DAYS` in the background (`PruneOldRuns`, in
 * batches): a minute after `start`, then every hour. Sweeps never overlap; `stop()` ends the one
 * under way after its current batch and waits for it. Several instances on one database may sweep
 * at once: a run deleted by one is simply not there for the other.
 */
export class RunPruner {
  private readonly options: RunPrunerOptions;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(options: RunPrunerOptions) {
    this.options = options;
  }

  start(): void {
    if (this.timer || this.stopped) return;
    this.schedule(this.options.firstSweepMs ?? FIRST_SWEEP_MS);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** One sweep now (or the one under way); resolves when it is over, and never rejects. */
  sweep(): Promise<void> {
    this.running ??= this.options.prune
      .execute({ stopped: () => this.stopped })
      .then((report) => {
        if (report.runs > 0) this.options.logger.info(report, 'deleted runs past their retention');
      })
      .catch((error: unknown) => this.options.logger.warn({ err: error }, 'the sweep for old runs failed'))
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      void this.sweep().then(() => this.schedule(this.options.intervalMs ?? RUN_PRUNE_INTERVAL_MS));
    }, delayMs);
    this.timer.unref();
  }
}
