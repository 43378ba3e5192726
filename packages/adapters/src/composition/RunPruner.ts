import type { PruneOldRuns } from '@browserdeck/domain';
import type { Logger } from 'pino';
import { PeriodicPass } from './lifecycle/PeriodicPass.ts';

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
 * batches): a minute after `start`, then every hour (a `PeriodicPass`). Sweeps never overlap;
 * `stop()` ends the one under way after its current batch and waits for it. Several instances on one database may sweep
 * at once: a run deleted by one is simply not there for the other.
 */
export class RunPruner {
  private readonly loop: PeriodicPass;

  constructor(options: RunPrunerOptions) {
    const { prune, logger } = options;
    this.loop = new PeriodicPass({
      pass: async (stopped) => {
        const report = await prune.execute({ stopped });
        if (report.runs > 0) logger.info(report, 'deleted runs past their retention');
      },
      intervalMs: options.intervalMs ?? RUN_PRUNE_INTERVAL_MS,
      firstDelayMs: options.firstSweepMs ?? FIRST_SWEEP_MS,
      onError: (error) => logger.warn({ err: error }, 'the sweep for old runs failed'),
    });
  }

  start(): void {
    this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  /** One sweep now (or the one under way); resolves when it is over, and never rejects. */
  sweep(): Promise<void> {
    return this.loop.running ?? this.loop.run();
  }
}
