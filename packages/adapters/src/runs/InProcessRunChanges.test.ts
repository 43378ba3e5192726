import { afterEach, describe, expect, it, vi } from 'vitest';
import { InProcessRunChanges } from './InProcessRunChanges.ts';

/** Whether `promise` has settled once pending callbacks have run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => {
    done = true;
  });
  await Promise.resolve();
  await Promise.resolve();
  return done;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('InProcessRunChanges', () => {
  it('wakes every reader of a run when it is notified, and only them', async () => {
    vi.useFakeTimers();
    const changes = new InProcessRunChanges();
    const first = changes.next('r1', 60_000);
    const second = changes.next('r1', 60_000);
    const other = changes.next('r2', 60_000);
    expect(changes.waitingOn('r1')).toBe(2);
    changes.notify('r1');
    expect(await settled(first)).toBe(true);
    expect(await settled(second)).toBe(true);
    expect(await settled(other)).toBe(false);
    expect(changes.waitingOn('r1')).toBe(0);
    expect(changes.waitingOn('r2')).toBe(1);
  });

  it('wakes a reader after maxWaitMs when nothing is notified', async () => {
    vi.useFakeTimers();
    const changes = new InProcessRunChanges();
    const reader = changes.next('r1', 1_000);
    await vi.advanceTimersByTimeAsync(999);
    expect(await settled(reader)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await settled(reader)).toBe(true);
    expect(changes.waitingOn('r1')).toBe(0);
  });

  it('wakes a reader after lookAgainMs at the latest, to look for changes made elsewhere', async () => {
    vi.useFakeTimers();
    const changes = new InProcessRunChanges({ lookAgainMs: 1_000 });
    const reader = changes.next('r1', 30_000);
    await vi.advanceTimersByTimeAsync(999);
    expect(await settled(reader)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await settled(reader)).toBe(true);
    const short = changes.next('r1', 200);
    await vi.advanceTimersByTimeAsync(200);
    expect(await settled(short)).toBe(true);
  });

  it('wakes a reader whose signal aborts, at once when it already has', async () => {
    vi.useFakeTimers();
    const changes = new InProcessRunChanges();
    const controller = new AbortController();
    const reader = changes.next('r1', 60_000, controller.signal);
    controller.abort();
    expect(await settled(reader)).toBe(true);
    expect(changes.waitingOn('r1')).toBe(0);
    expect(await settled(changes.next('r1', 60_000, controller.signal))).toBe(true);
  });

  it('keeps a reader that starts waiting after a notification waiting for the next one', async () => {
    vi.useFakeTimers();
    const changes = new InProcessRunChanges();
    changes.notify('r1');
    const reader = changes.next('r1', 60_000);
    expect(await settled(reader)).toBe(false);
    changes.notify('r1');
    expect(await settled(reader)).toBe(true);
  });
});
