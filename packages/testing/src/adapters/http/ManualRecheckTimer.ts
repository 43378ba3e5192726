import type { RecheckTimer } from '@browserdeck/adapters/http-koa';

/**
 * A `RecheckTimer` a test drives: nothing runs on its own; `tick()` runs every started re-check once
 * and resolves when they are done. `running` says whether any is started (viewers are watched).
 */
export class ManualRecheckTimer {
  private readonly ticks = new Set<() => Promise<void>>();
  private readonly idleWaiters: Array<() => void> = [];
  /** The interval each re-check was started with, in order. */
  readonly intervals: number[] = [];

  /** The timer to hand to the app (`HttpAppDeps.liveViewRecheck.timer`). */
  readonly timer: RecheckTimer = (ms, tick) => {
    this.intervals.push(ms);
    this.ticks.add(tick);
    return {
      stop: () => {
        this.ticks.delete(tick);
        if (this.ticks.size === 0) for (const wake of this.idleWaiters.splice(0)) wake();
      },
    };
  };

  /** True while a re-check is started. */
  get running(): boolean {
    return this.ticks.size > 0;
  }

  /** Resolves once no re-check is started (at once when none is). */
  whenIdle(): Promise<void> {
    if (this.ticks.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Runs every started re-check once and waits for them. */
  async tick(): Promise<void> {
    await Promise.all([...this.ticks].map((tick) => tick()));
  }
}
