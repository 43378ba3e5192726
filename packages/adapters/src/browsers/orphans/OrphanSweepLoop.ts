import type { Logger } from '@browserdeck/domain';

/**
 * Runs a provider's orphan-search pass every `intervalMs` while started. Passes never overlap; a
 * failed pass is logged and the next one runs as planned; `stop()` waits for the running pass. The
 * timer never keeps the process alive.
 */
export class OrphanSweepLoop {
  private readonly deps: { pass: () => Promise<unknown>; intervalMs: number; logger: Logger };
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private started = false;
  private stopped = false;

  constructor(deps: { pass: () => Promise<unknown>; intervalMs: number; logger: Logger }) {
    this.deps = deps;
  }

  start(): void {
    if (this.started || this.stopped) return;
    this.started = true;
    this.schedule();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.deps
        .pass()
        .then(
          () => undefined,
          (error: unknown) =>
            this.deps.logger.warn(
              { error: String(error) },
              'the search for browsers left by failed creates failed',
            ),
        )
        .finally(() => {
          this.running = undefined;
          this.schedule();
        });
    }, this.deps.intervalMs);
    this.timer.unref();
  }
}
