import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RUN_PRUNE_INTERVAL_MS, RunPruner } from './RunPruner.ts';

const logger = pino({ level: 'silent' });
const NOTHING = { runs: 0, logLines: 0 };

describe('RunPruner', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sweeps a minute after start, then every hour, until stop', async () => {
    const execute = vi.fn(async () => NOTHING);
    const pruner = new RunPruner({ prune: { execute }, logger });
    pruner.start();
    await vi.advanceTimersByTimeAsync(59_000);
    expect(execute).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(execute).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(RUN_PRUNE_INTERVAL_MS);
    expect(execute).toHaveBeenCalledTimes(2);
    await pruner.stop();
    await vi.advanceTimersByTimeAsync(3 * RUN_PRUNE_INTERVAL_MS);
    expect(execute).toHaveBeenCalledTimes(2);
  });

  it('never runs two sweeps at once; stop() tells the sweep under way to stop and waits for it', async () => {
    let release: () => void = () => {};
    let stoppedSeen: (() => boolean) | undefined;
    const execute = vi.fn(async (input: { stopped?: () => boolean } = {}) => {
      stoppedSeen = input.stopped;
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      return NOTHING;
    });
    const pruner = new RunPruner({ prune: { execute }, logger, firstSweepMs: 10, intervalMs: 10 });
    pruner.start();
    await vi.advanceTimersByTimeAsync(10);
    const again = pruner.sweep();
    await vi.advanceTimersByTimeAsync(100);
    expect(execute).toHaveBeenCalledTimes(1);
    expect(stoppedSeen?.()).toBe(false);
    let stopped = false;
    const stopping = pruner.stop().then(() => {
      stopped = true;
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(stoppedSeen?.()).toBe(true);
    expect(stopped).toBe(false);
    release();
    await Promise.all([stopping, again]);
    await vi.advanceTimersByTimeAsync(100);
    expect(execute).toHaveBeenCalledTimes(1);
  });

  it('keeps sweeping after a sweep that failed', async () => {
    const execute = vi.fn().mockRejectedValueOnce(new Error('database gone')).mockResolvedValue(NOTHING);
    const pruner = new RunPruner({ prune: { execute }, logger, firstSweepMs: 10, intervalMs: 1_000 });
    pruner.start();
    await vi.advanceTimersByTimeAsync(2_100);
    expect(execute.mock.calls.length).toBeGreaterThanOrEqual(3);
    await pruner.stop();
  });
});
