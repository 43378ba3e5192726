import type { Logger } from '@browserdeck/domain';
import type { PreparedBrowser } from './PreparedBrowser.ts';

interface PoolEntry {
  readonly promise: Promise<PreparedBrowser | null>;
  browser: PreparedBrowser | null;
}

/** How long refilling pauses after a warm browser failed to start (no tight loop of launches). */
const REFILL_BACKOFF_MS = 10_000;

/**
 * Browsers started ahead of demand with fresh temporary profiles. An entry counts from the moment
 * its launch starts, so capacity accounting sees launching browsers too. A pooled browser that
 * dies is dropped and replaced. `refill` tops the pool up to its target, but only into the slots
 * the provider says are free.
 */
export class WarmPool {
  private readonly entries: PoolEntry[] = [];
  private readonly launch: () => Promise<PreparedBrowser>;
  private readonly target: number;
  private readonly freeSlots: () => number;
  private readonly logger: Logger;
  private pausedUntil = 0;
  private refillTimer: NodeJS.Timeout | null = null;
  private pendingRefill: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(deps: {
    launch: () => Promise<PreparedBrowser>;
    /** How many warm browsers to keep. */
    target: number;
    /** Browsers that may still be started: capacity minus sessions and pooled browsers. */
    freeSlots: () => number;
    logger: Logger;
  }) {
    this.launch = deps.launch;
    this.target = deps.target;
    this.freeSlots = deps.freeSlots;
    this.logger = deps.logger;
  }

  /**
   * Refills after `delayMs`: a browser just handed out gets the CPU for its client's first
   * connection instead of sharing it with the launch of its replacement.
   */
  refillSoon(delayMs: number): void {
    if (this.refillTimer) return;
    this.pendingRefill = new Promise((resolve) => {
      this.refillTimer = setTimeout(() => {
        this.refillTimer = null;
        this.refill();
        resolve();
      }, delayMs);
      this.refillTimer.unref();
    });
  }

  /** Starts browsers until the pool holds its target or no slot is free. */
  refill(): void {
    while (
      !this.closed &&
      this.entries.length < this.target &&
      this.freeSlots() > 0 &&
      Date.now() >= this.pausedUntil
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
    const promise = this.launch().then(
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
        this.logger.warn({ err: error }, 'local provider: a warm browser could not start');
        this.pausedUntil = Date.now() + REFILL_BACKOFF_MS;
        setTimeout(() => this.refill(), REFILL_BACKOFF_MS).unref();
        return null;
      },
    );
    entry = { promise, browser: null };
    this.entries.push(entry);
  }

  /** A live warm browser (waiting for one still launching if need be); null when the pool is empty. */
  async take(): Promise<PreparedBrowser | null> {
    for (;;) {
      const index = this.entries.findIndex((e) => e.browser !== null);
      const entry = this.entries.splice(index === -1 ? 0 : index, 1)[0];
      if (!entry) return null;
      const browser = await entry.promise;
      if (browser?.alive) return browser;
      if (browser) void browser.dispose();
    }
  }

  /** Stops one pooled browser to free its slot (the one started last). */
  async evictOne(): Promise<void> {
    const entry = this.entries.pop();
    const browser = await entry?.promise;
    await browser?.dispose();
  }

  /** Resolves when no refill is pending and no launch is in progress. */
  async settled(): Promise<void> {
    if (this.refillTimer) await this.pendingRefill;
    await Promise.all(this.entries.map((e) => e.promise));
  }

  /** Stops every pooled browser and refuses new ones. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.refillTimer) {
      clearTimeout(this.refillTimer);
      this.refillTimer = null;
    }
    const entries = this.entries.splice(0);
    await Promise.all(entries.map(async (e) => (await e.promise)?.dispose()));
  }

  /** Browsers pooled right now (ready ones), for the exit hook. */
  readyBrowsers(): PreparedBrowser[] {
    return this.entries.flatMap((e) => (e.browser ? [e.browser] : []));
  }

  private remove(entry: PoolEntry): boolean {
    const index = this.entries.indexOf(entry);
    if (index === -1) return false;
    this.entries.splice(index, 1);
    return true;
  }
}
