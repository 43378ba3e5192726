import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PeriodicPass } from './PeriodicPass.ts';

/** A pass the test ends: `passes` counts the ones begun, `finish()` ends the one under way. */
function heldPasses() {
  const held: Array<() => void> = [];
  let passes = 0;
  const pass = () => {
    passes++;
    return new Promise<void>((resolve) => held.push(resolve));
  };
  return { pass, passes: () => passes, finish: () => held.shift()?.() };
}

describe('PeriodicPass', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('counts the interval from the end of a pass, so passes never overlap', async () => {
    const { pass, passes, finish } = heldPasses();
    const loop = new PeriodicPass({ pass, intervalMs: 100, firstDelayMs: 10, onError: () => {} });
    loop.start();
    loop.start();
    await vi.advanceTimersByTimeAsync(10);
    expect(passes()).toBe(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(passes()).toBe(1);
    finish();
    await vi.advanceTimersByTimeAsync(99);
    expect(passes()).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(passes()).toBe(2);
    finish();
    await loop.stop();
  });

  it('runs a pass asked for after the one under way, which the timer then counts as its own', async () => {
    const { pass, passes, finish } = heldPasses();
    const loop = new PeriodicPass({ pass, intervalMs: 100, onError: () => {} });
    loop.start();
    await vi.advanceTimersByTimeAsync(100);
    const asked = loop.run();
    await vi.advanceTimersByTimeAsync(0);
    expect(passes()).toBe(1);
    finish();
    await vi.advanceTimersByTimeAsync(0);
    expect(passes()).toBe(2);
    await vi.advanceTimersByTimeAsync(500);
    expect(passes()).toBe(2);
    finish();
    await asked;
    await loop.stop();
  });

  it('reports a failed pass and goes on; stop tells the pass under way and waits for it', async () => {
    const errors: unknown[] = [];
    let seen: (() => boolean) | undefined;
    let release: () => void = () => {};
    const pass = vi
      .fn<(stopped: () => boolean) => Promise<void>>()
      .mockRejectedValueOnce(new Error('database gone'))
      .mockImplementation((stopped) => {
        seen = stopped;
        return new Promise<void>((resolve) => {
          release = resolve;
        });
      });
    const loop = new PeriodicPass({ pass, intervalMs: 100, onError: (error) => errors.push(error) });
    loop.start();
    await vi.advanceTimersByTimeAsync(200);
    expect(errors).toEqual([new Error('database gone')]);
    expect(pass).toHaveBeenCalledTimes(2);
    expect(seen?.()).toBe(false);
    let stopped = false;
    const stopping = loop.stop().then(() => {
      stopped = true;
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(seen?.()).toBe(true);
    expect(stopped).toBe(false);
    release();
    await stopping;
    await vi.advanceTimersByTimeAsync(1_000);
    expect(pass).toHaveBeenCalledTimes(2);
  });
});
