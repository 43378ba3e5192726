import type { Logger } from '@browserdeck/domain';
import type { RunnerProcess } from './RunnerProcess.ts';

/** Wait before starting again after a process failed to get ready (a broken host must not spin). */
const RETRY_MS = 2_000;

/**
 * Runs' processes started ahead, ready (playwright-core loaded) before a run needs one. Each is
 * spawned with an empty environment, its own folder and cgroup, and serves one run only: `take`
 * hands one over and starts its replacement.
 */
export class WarmRunners {
  private readonly size: number;
  private readonly launch: () => Promise<RunnerProcess>;
  private readonly logger: Logger;
  private readonly pool: { runner: RunnerProcess; ready: boolean }[] = [];
  private starting = 0;
  private retry: NodeJS.Timeout | null = null;
  private closed = false;
  /** Starts and disposals under way: `close` waits for them (a run folder's disk must not outlive us). */
  private readonly pending = new Set<Promise<unknown>>();

  constructor(size: number, launch: () => Promise<RunnerProcess>, logger: Logger) {
    this.size = size;
    this.launch = launch;
    this.logger = logger;
  }

  /** Starts processes until `size` are ready or on their way. */
  fill(): void {
    while (!this.closed && this.retry === null && this.pool.length + this.starting < this.size) {
      this.starting++;
      this.track(
        this.launch().then(
          (runner) => {
            this.starting--;
            if (this.closed) return runner.dispose();
            const entry = { runner, ready: false };
            this.pool.push(entry);
            runner.ready.then(
              () => {
                entry.ready = true;
              },
              (error: unknown) => this.lost(entry, error),
            );
          },
          (error: unknown) => {
            this.starting--;
            this.backOff(error);
          },
        ),
      );
    }
  }

  /** A ready process (else one on its way), now the caller's; null when there is none. */
  take(): RunnerProcess | null {
    if (this.pool.length === 0) return null;
    const index = Math.max(
      0,
      this.pool.findIndex((e) => e.ready),
    );
    const [entry] = this.pool.splice(index, 1);
    this.fill();
    return entry!.runner;
  }

  /** Stops starting and disposes of every process not taken. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.retry) clearTimeout(this.retry);
    await Promise.all(this.pool.splice(0).map((e) => e.runner.dispose()));
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  /** Kills every process not taken, at once (for `process.on('exit')`). */
  killAll(): void {
    for (const { runner } of this.pool) runner.kill();
  }

  private lost(entry: { runner: RunnerProcess }, error: unknown): void {
    const index = this.pool.indexOf(entry as (typeof this.pool)[number]);
    if (index === -1) return;
    this.pool.splice(index, 1);
    this.track(entry.runner.dispose());
    this.backOff(error);
  }

  private backOff(error: unknown): void {
    if (this.closed) return;
    this.logger.warn({ err: error }, 'script runner: a warm runner process could not start');
    this.retry ??= setTimeout(() => {
      this.retry = null;
      this.fill();
    }, RETRY_MS);
    this.retry.unref();
  }

  private track(work: Promise<unknown>): void {
    const tracked = work.catch(() => {});
    this.pending.add(tracked);
    void tracked.finally(() => this.pending.delete(tracked));
  }
}
