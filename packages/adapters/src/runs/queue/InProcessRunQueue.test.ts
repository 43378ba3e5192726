import type { RunTicket } from '@browserdeck/domain';
import { aRun, InMemoryRunRepository } from '@browserdeck/testing';
import { pino } from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { InProcessRunQueue } from './InProcessRunQueue.ts';
import type { RunQueueConsumer } from './RunWorkQueue.ts';

/** A consumer whose runs last until the test finishes them; it records what it got. */
function heldConsumer() {
  const started: string[] = [];
  const interrupted: string[] = [];
  const finishers = new Map<string, () => void>();
  let onStart: (() => void) | undefined;
  const consumer: RunQueueConsumer = {
    run: ({ runId }) =>
      new Promise<void>((resolve) => {
        started.push(runId);
        finishers.set(runId, resolve);
        onStart?.();
      }),
    interrupt: (runId) => interrupted.push(runId),
  };
  return {
    consumer,
    started,
    interrupted,
    /** Ends `runId`'s execution and waits for the queue to hand out what comes next. */
    finish: async (runId: string) => {
      finishers.get(runId)?.();
      await new Promise((resolve) => setImmediate(resolve));
    },
    /** Resolves once `count` runs have been handed out. */
    untilStarted: (count: number) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (started.length >= count) resolve();
        };
        onStart = check;
        check();
      }),
  };
}

const silent = pino({ level: 'silent' });
const newQueue = (runs = new InMemoryRunRepository(), maxActivePerOwner?: number) =>
  new InProcessRunQueue({ runs, logger: silent, maxActivePerOwner });
/** A run of `ownerId`'s (one account for every run by default). */
const ticket = (runId: string, ownerId = 'owner-a'): RunTicket => ({ runId, ownerId });

afterEach(() => {
  vi.useRealTimers();
});

describe('InProcessRunQueue', () => {
  it('hands out at most `concurrency` runs at once, first in first out', async () => {
    const queue = newQueue();
    const held = heldConsumer();
    await queue.start(held.consumer, { concurrency: 2 });
    for (const id of ['r1', 'r2', 'r3', 'r4']) await queue.enqueue(ticket(id));
    expect(held.started).toEqual(['r1', 'r2']);
    expect(await queue.depth()).toBe(2);
    await held.finish('r2');
    expect(held.started).toEqual(['r1', 'r2', 'r3']);
    await held.finish('r1');
    expect(held.started).toEqual(['r1', 'r2', 'r3', 'r4']);
    expect(await queue.depth()).toBe(0);
  });

  it('starts another account’s run at the next free slot, however many one account queued', async () => {
    const queue = newQueue(undefined, 1);
    const held = heldConsumer();
    await queue.start(held.consumer, { concurrency: 2 });
    for (let i = 0; i < 300; i++) await queue.enqueue(ticket(`a${i}`, 'owner-a'));
    // One account holds one slot at most: the other waits for another account.
    expect(held.started).toEqual(['a0']);
    await queue.enqueue(ticket('b0', 'owner-b'));
    expect(held.started).toEqual(['a0', 'b0']);
    await queue.enqueue(ticket('b1', 'owner-b'));
    await queue.enqueue(ticket('c0', 'owner-c'));
    // Each free slot goes to the account whose last turn (or arrival) is longest ago: round robin.
    await held.finish('a0');
    expect(held.started).toEqual(['a0', 'b0', 'a1']);
    await held.finish('b0');
    expect(held.started).toEqual(['a0', 'b0', 'a1', 'b1']);
    await held.finish('a1');
    expect(held.started).toEqual(['a0', 'b0', 'a1', 'b1', 'c0']);
    await held.finish('b1');
    expect(held.started.at(-1)).toBe('a2');
    expect(await queue.depth()).toBe(297);
  });

  it('with every slot open to one account, gives the next one to the account with fewer going', async () => {
    const queue = newQueue(undefined, 2);
    const held = heldConsumer();
    await queue.start(held.consumer, { concurrency: 2 });
    for (let i = 0; i < 10; i++) await queue.enqueue(ticket(`a${i}`, 'owner-a'));
    await queue.enqueue(ticket('b0', 'owner-b'));
    expect(held.started).toEqual(['a0', 'a1']);
    await held.finish('a0');
    expect(held.started).toEqual(['a0', 'a1', 'b0']);
  });

  it('holds a run enqueued with a delay until the delay is over', async () => {
    vi.useFakeTimers();
    const queue = newQueue();
    const held = heldConsumer();
    await queue.start(held.consumer, { concurrency: 1 });
    await queue.enqueue(ticket('later'), { delayMs: 5_000 });
    expect(await queue.depth()).toBe(1);
    await vi.advanceTimersByTimeAsync(4_999);
    expect(held.started).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(held.started).toEqual(['later']);
    expect(await queue.depth()).toBe(0);
  });

  it('picks up the runs left QUEUED in the runs table when it starts, oldest first', async () => {
    const runs = new InMemoryRunRepository();
    const older = aRun({ now: new Date('2026-01-01T00:00:00Z') });
    const newer = aRun({ now: new Date('2026-01-01T00:01:00Z') });
    const running = aRun({ status: 'RUNNING' });
    const done = aRun({ status: 'SUCCEEDED' });
    for (const run of [newer, running, older, done]) await runs.add(run);
    const queue = newQueue(runs);
    const held = heldConsumer();
    await queue.start(held.consumer, { concurrency: 4 });
    expect(held.started).toEqual([older.id, newer.id]);
  });

  it('hands out a run enqueued before it starts once, though the runs table lists it too', async () => {
    const runs = new InMemoryRunRepository();
    const run = aRun();
    await runs.add(run);
    const queue = newQueue(runs);
    const held = heldConsumer();
    await queue.enqueue({ runId: run.id, ownerId: run.ownerId });
    await queue.start(held.consumer, { concurrency: 4 });
    expect(held.started).toEqual([run.id]);
  });

  it('interrupts a run being executed through its consumer, and drops a waiting one', async () => {
    const queue = newQueue();
    const held = heldConsumer();
    await queue.start(held.consumer, { concurrency: 1 });
    await queue.enqueue(ticket('running'));
    await queue.enqueue(ticket('waiting'));
    queue.interrupt('running');
    queue.interrupt('waiting');
    expect(held.interrupted).toEqual(['running', 'waiting']);
    expect(await queue.depth()).toBe(0);
    await held.finish('running');
    expect(held.started).toEqual(['running']);
  });

  it('runs again a run enqueued while it is being executed (a requeue), once it is over', async () => {
    const queue = newQueue();
    const held = heldConsumer();
    await queue.start(held.consumer, { concurrency: 2 });
    await queue.enqueue(ticket('r1'));
    await queue.enqueue(ticket('r1'));
    expect(held.started).toEqual(['r1']);
    await held.finish('r1');
    await held.untilStarted(2);
    expect(held.started).toEqual(['r1', 'r1']);
  });

  it('hands out nothing more once it stops taking runs, and refuses runs once closed', async () => {
    const queue = newQueue();
    const held = heldConsumer();
    await queue.start(held.consumer, { concurrency: 1 });
    await queue.enqueue(ticket('r1'));
    await queue.enqueue(ticket('r2'));
    await queue.stopTaking();
    await held.finish('r1');
    expect(held.started).toEqual(['r1']);
    await queue.close();
    await expect(queue.enqueue(ticket('r3'))).rejects.toThrow('closed');
  });
});
