import { silentLogger } from '@browserdeck/domain';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PreparedBrowser } from './PreparedBrowser.ts';
import { WarmPool } from './WarmPool.ts';

/** A stand-in browser whose launch the test finishes by hand. */
interface FakeLaunch {
  readonly browser: PreparedBrowser & { disposed: boolean };
  finish(): void;
}

function givenPool(options: { min: number; max: number; slots?: number; refillAfterTakeMs?: number }) {
  const launches: FakeLaunch[] = [];
  const pool: WarmPool = new WarmPool({
    min: options.min,
    max: options.max,
    freeSlots: () => (options.slots ?? 4) - pool.size,
    logger: silentLogger,
    idleShrinkMs: 1_000,
    refillAfterTakeMs: options.refillAfterTakeMs,
    launch: () =>
      new Promise<PreparedBrowser>((resolve) => {
        const browser = {
          alive: true,
          disposed: false,
          process: { exited: new Promise(() => {}) },
          dispose: async () => {
            browser.disposed = true;
          },
        } as unknown as PreparedBrowser & { disposed: boolean };
        launches.push({ browser, finish: () => resolve(browser) });
      }),
  });
  const finishAll = async () => {
    for (const launch of launches) launch.finish();
    await pool.settled();
  };
  return { pool, launches, finishAll };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('WarmPool', () => {
  it('starts a taken browser’s replacement at once', async () => {
    const { pool, launches, finishAll } = givenPool({ min: 1, max: 4 });
    pool.refill();
    await finishAll();
    expect(await pool.take()).toBe(launches[0]!.browser);
    expect(launches).toHaveLength(2);
    expect(pool.size).toBe(1);
  });

  it('starts a taken ready browser’s replacement `refillAfterTakeMs` later, and `settled` waits for it', async () => {
    vi.useFakeTimers();
    const { pool, launches, finishAll } = givenPool({ min: 1, max: 4, refillAfterTakeMs: 250 });
    pool.refill();
    await finishAll();
    expect(await pool.take()).toBe(launches[0]!.browser);
    // Clear of the new session's first connection: nothing launches yet, not even on a refill call.
    pool.refill();
    expect(launches).toHaveLength(1);
    let settled = false;
    const settling = pool.settled().then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(249);
    expect(launches).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(launches).toHaveLength(2);
    expect(settled).toBe(false);
    launches[1]!.finish();
    await settling;
    expect(pool.size).toBe(1);
  });

  it('ends the hold when a session is released (`endHold`): the next create may follow at once', async () => {
    vi.useFakeTimers();
    const { pool, launches, finishAll } = givenPool({ min: 1, max: 4, refillAfterTakeMs: 250 });
    pool.refill();
    await finishAll();
    await pool.take();
    expect(launches).toHaveLength(1);
    pool.endHold();
    expect(launches).toHaveLength(2);
    // Its timer is gone with it: no second replacement later.
    await vi.advanceTimersByTimeAsync(1_000);
    expect(launches).toHaveLength(2);
  });

  it('refills at once after a miss, whatever `refillAfterTakeMs`', async () => {
    const { pool, launches } = givenPool({ min: 1, max: 4, refillAfterTakeMs: 250 });
    pool.refill();
    // The one browser is still launching: a miss, which grows the pool to two and refills now.
    const taking = pool.take();
    expect(launches).toHaveLength(3);
    launches[0]!.finish();
    expect(await taking).toBe(launches[0]!.browser);
  });

  it('grows by one on each miss, up to max, and shrinks back one step per idle lapse', async () => {
    vi.useFakeTimers();
    const { pool, finishAll } = givenPool({ min: 1, max: 3, slots: 10 });
    pool.refill();
    // Misses: nothing is ready yet, every take waits for a launch.
    const takes = [pool.take(), pool.take(), pool.take()];
    expect(pool.wanted).toBe(3);
    await finishAll();
    await Promise.all(takes);
    await finishAll();
    expect(pool.size).toBe(3);
    // A hit does not grow it.
    await pool.take();
    expect(pool.wanted).toBe(3);
    await finishAll();
    const held = pool.readyBrowsers();
    vi.advanceTimersByTime(1_000);
    expect(pool.wanted).toBe(2);
    expect(pool.size).toBe(2);
    vi.advanceTimersByTime(1_000);
    expect(pool.wanted).toBe(1);
    expect(pool.size).toBe(1);
    const disposed = held.filter((b) => (b as PreparedBrowser & { disposed: boolean }).disposed);
    expect(disposed).toHaveLength(2);
    vi.advanceTimersByTime(10_000);
    expect(pool.wanted).toBe(1);
    await pool.close();
  });

  it('stays off with min 0: no browser, no growth', async () => {
    const { pool, launches } = givenPool({ min: 0, max: 4 });
    pool.refill();
    expect(await pool.take()).toBeNull();
    expect(pool.wanted).toBe(0);
    expect(launches).toHaveLength(0);
  });

  it('evicts without waiting for the browser to stop', async () => {
    const { pool, launches, finishAll } = givenPool({ min: 1, max: 1 });
    pool.refill();
    await finishAll();
    pool.evictOne();
    expect(pool.size).toBe(0);
    await vi.waitFor(() => expect(launches[0]!.browser.disposed).toBe(true));
  });
});
