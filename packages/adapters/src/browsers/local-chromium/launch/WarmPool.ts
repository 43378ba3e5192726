import type { Logger } from '@browserdeck/domain';
import type { PreparedBrowser } from './PreparedBrowser.ts';

interface PoolEntry {
  readonly promise: Promise<PreparedBrowser | null>;
  browser: PreparedBrowser | null;
}

/** How long refilling pauses after a warm browser failed to start (no tight loop of launches). */
const REFILL_BACKOFF_MS = 10_000;
/** How long without a take before the pool gives one grown browser back (and again after as long). */
const DEFAULT_IDLE_SHRINK_MS = 30_000;

/** What a warm pool needs from its provider. */
export interface WarmPoolDeps {
  launch: () => Promise<PreparedBrowser>;
  /** The fewest warm browsers kept (`LOCAL_WARM_BROWSERS`); 0 turns the pool off, growth included. */
  min: number;
  /** The most it grows to on demand (the provider's slots, which are sized to the host's memory). */
  max: number;
  /** Browsers that may still be started: capacity minus sessions and pooled browsers. */
  freeSlots: () => number;
  logger: Logger;
  /** Idle time before shrinking by one (default 30 s). */
  idleShrinkMs?: number;
  /**
   * How long after handing out a ready browser its replacement starts (default 0: at once). A
   * launch shares the host's cores and the service's event loop with the new session's first
   * connection, which it would slow (docs/benchmarks.md, section 10).
   */
  refillAfterTakeMs?: number;
}

/**
 * Browsers started ahead of demand with fresh temporary profiles. An entry counts from the moment
 * its launch starts, so capacity accounting sees launching browsers too. A pooled browser that
 * dies is dropped and replaced.
 *
 * The pool keeps up with demand: a take starts its replacement (`refillAfterTakeMs` later, so the
 * launch keeps clear of the new session's first connection, or as a session is released, when the
 * next create may follow at once), and a take that finds no
 * ready browser (a miss: the create waits for a launch) raises the target by one, up to `max`, so
 * creates in a row find more browsers ready. After `idleShrinkMs` without a take the target falls by
 * one, back down to `min`, and a ready browser beyond it is stopped. `refill` only ever starts
 * browsers into the slots the provider says are free.
 */
export class WarmPool {
  private readonly entries: PoolEntry[] = [];
  private readonly deps: WarmPoolDeps;
  private target: number;
  private pausedUntil = 0;
  private shrinkTimer: NodeJS.Timeout | null = null;
  /** A refill held back after a take (`refillAfterTakeMs`), and its timer; `settled` waits for it. */
  private heldRefill: { timer: NodeJS.Timeout; done: Promise<void>; release(): void } | null = null;
  private closed = false;

  constructor(deps: WarmPoolDeps) {
    this.deps = deps;
    this.target = deps.min;
  }

  /** How many warm browsers the pool aims to hold now (between `min` and `max`). */
  get wanted(): number {
    return this.target;
  }

  /** Starts browsers until the pool holds its target or no slot is free. */
  refill(): void {
    while (
      !this.closed &&
      this.entries.length < this.target &&
      this.deps.freeSlots() > 0 &&
      Date.now() >= this.pausedUntil &&
      this.heldRefill === null
    )
      this.add();
  }

  /** Browsers held, launching or ready. */
  get size(): number {
    return this.entries.length;
  }

  private add(): void {
    if (this.closed) return;
    // The callbacks run after `entry` is assigned below.
    let entry: PoolEntry;
    const promise = this.deps.launch().then(
      (browser) => {
        entry.browser = browser;
        void browser.process.exited.then(() => {
          if (!this.remove(entry)) return;
          void browser.dispose();
          this.refill();
        });
        if (this.closed && this.remove(entry)) void browser.dispose();
        return browser;
      },
      (error: unknown) => {
        this.remove(entry);
        this.deps.logger.warn({ err: error }, 'local provider: a warm browser could not start');
        this.pausedUntil = Date.now() + REFILL_BACKOFF_MS;
        setTimeout(() => this.refill(), REFILL_BACKOFF_MS).unref();
        return null;
      },
    );
    entry = { promise, browser: null };
    this.entries.push(entry);
  }

  /**
   * A live warm browser (waiting for one still launching if need be); null when the pool is empty.
   * A ready one's replacement starts `refillAfterTakeMs` later; a miss (none was ready) grows the
   * pool by one and refills at once.
   */
  async take(): Promise<PreparedBrowser | null> {
    if (this.deps.min === 0) return null;
    const ready = this.entries.findIndex((e) => e.browser !== null);
    if (ready === -1 && this.target < this.deps.max) this.target++;
    if (ready !== -1) this.holdRefill(this.deps.refillAfterTakeMs ?? 0);
    this.armShrink();
    for (let index = ready; ; index = this.entries.findIndex((e) => e.browser !== null)) {
      const entry = this.entries.splice(index === -1 ? 0 : index, 1)[0];
      this.refill();
      if (!entry) return null;
      const browser = await entry.promise;
      if (browser?.alive) return browser;
      if (browser) void browser.dispose();
    }
  }

  /**
   * Frees a pooled browser's slot for a launch: takes the one started last out of the pool and
   * stops it without waiting (its teardown is off the create's path).
   */
  evictOne(): void {
    const entry = this.entries.pop();
    void entry?.promise.then((browser) => browser?.dispose());
  }

  /** Resolves when no launch is in progress, nor held back after a take. */
  async settled(): Promise<void> {
    await this.heldRefill?.done;
    await Promise.all(this.entries.map((e) => e.promise));
  }

  /** Stops every pooled browser and refuses new ones. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.heldRefill) {
      clearTimeout(this.heldRefill.timer);
      this.heldRefill.release();
    }
    if (this.shrinkTimer) clearTimeout(this.shrinkTimer);
    this.shrinkTimer = null;
    const entries = this.entries.splice(0);
    await Promise.all(entries.map(async (e) => (await e.promise)?.dispose()));
  }

  /** Browsers pooled right now (ready ones), for the exit hook. */
  readyBrowsers(): PreparedBrowser[] {
    return this.entries.flatMap((e) => (e.browser ? [e.browser] : []));
  }

  /** Ends a hold after a take now (a session was released: the next create may come at once) and refills. */
  endHold(): void {
    const held = this.heldRefill;
    if (!held) return;
    clearTimeout(held.timer);
    this.heldRefill = null;
    this.refill();
    held.release();
  }

  /**
   * Holds refills back for `ms` (none: 0), then refills. A hold under way is not extended: takes in
   * a row (back-to-back creates) get their replacements at most `ms` after the first.
   */
  private holdRefill(ms: number): void {
    if (ms <= 0 || this.heldRefill) return;
    let release = () => {};
    const done = new Promise<void>((resolve) => (release = resolve));
    const timer = setTimeout(() => this.endHold(), ms);
    timer.unref();
    this.heldRefill = { timer, done, release };
  }

  /** (Re)starts the idle countdown: each lapse without a take gives one grown browser back. */
  private armShrink(): void {
    if (this.shrinkTimer) clearTimeout(this.shrinkTimer);
    this.shrinkTimer = null;
    if (this.target <= this.deps.min) return;
    this.shrinkTimer = setTimeout(() => {
      this.shrinkTimer = null;
      this.target = Math.max(this.deps.min, this.target - 1);
      const spare = this.entries.length - this.target;
      for (let i = 0; i < spare; i++) {
        const index = this.entries.findLastIndex((e) => e.browser !== null);
        if (index === -1) break;
        const [entry] = this.entries.splice(index, 1);
        void entry?.browser?.dispose();
      }
      this.armShrink();
    }, this.deps.idleShrinkMs ?? DEFAULT_IDLE_SHRINK_MS);
    this.shrinkTimer.unref();
  }

  private remove(entry: PoolEntry): boolean {
    const index = this.entries.indexOf(entry);
    if (index === -1) return false;
    this.entries.splice(index, 1);
    return true;
  }
}
