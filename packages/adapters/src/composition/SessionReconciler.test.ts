import { pino } from 'pino';
import { describe, expect, it, vi } from 'vitest';
import { SessionReconciler } from './SessionReconciler.ts';

const logger = pino({ level: 'silent' });

describe('SessionReconciler', () => {
  it('runs batches until one comes back short, with a lease longer than the interval', async () => {
    const claims = [50, 50, 7];
    const execute = vi.fn(async () => ({
      claimed: claims.shift() ?? 0,
      synced: 0,
      failed: 0,
      endedAsError: 0,
    }));
    const reconciler = new SessionReconciler({ reconcile: { execute }, logger, intervalSec: 20 });
    await reconciler.runOnce();
    expect(execute).toHaveBeenCalledTimes(3);
    expect(execute).toHaveBeenCalledWith({
      batchSize: 50,
      concurrency: 4,
      leaseSec: 40,
      syncedBefore: expect.any(Date),
      // Failing sessions wait from one interval, doubling, up to 5 minutes.
      retry: { minDelaySec: 20, maxDelaySec: 300, giveUpAfterSec: 80, expiryGraceSec: 300 },
    });
    // One cut-off for the whole pass: the time it began.
    const cutOffs = execute.mock.calls.map(
      (call) => (call as unknown as [{ syncedBefore: Date }])[0].syncedBefore,
    );
    expect(new Set(cutOffs).size).toBe(1);
  });

  it('runs every interval, never two passes at once, and stop() waits for the running pass', async () => {
    vi.useFakeTimers();
    try {
      let running = 0;
      let maxRunning = 0;
      let release: () => void = () => {};
      const execute = vi.fn(async () => {
        running++;
        maxRunning = Math.max(maxRunning, running);
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        running--;
        return { claimed: 0, synced: 0, failed: 0, endedAsError: 0 };
      });
      const reconciler = new SessionReconciler({ reconcile: { execute }, logger, intervalSec: 15 });
      reconciler.start();
      expect(execute).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(15_000);
      expect(execute).toHaveBeenCalledTimes(1);
      await vi.advanceTimersByTimeAsync(60_000);
      expect(execute).toHaveBeenCalledTimes(1);
      let stopped = false;
      const stopping = reconciler.stop().then(() => {
        stopped = true;
      });
      await vi.advanceTimersByTimeAsync(0);
      expect(stopped).toBe(false);
      release();
      await stopping;
      await vi.advanceTimersByTimeAsync(60_000);
      expect(execute).toHaveBeenCalledTimes(1);
      expect(maxRunning).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('keeps going after a failed pass', async () => {
    vi.useFakeTimers();
    try {
      const execute = vi
        .fn()
        .mockRejectedValueOnce(new Error('database gone'))
        .mockResolvedValue({ claimed: 0, synced: 0, failed: 0, endedAsError: 0 });
      const reconciler = new SessionReconciler({ reconcile: { execute }, logger, intervalSec: 1 });
      reconciler.start();
      await vi.advanceTimersByTimeAsync(3_000);
      expect(execute.mock.calls.length).toBeGreaterThanOrEqual(2);
      await reconciler.stop();
    } finally {
      vi.useRealTimers();
    }
  });
});
