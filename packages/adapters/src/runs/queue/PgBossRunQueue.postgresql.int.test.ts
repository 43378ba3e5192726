import type { RunTicket } from '@browserdeck/domain';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../../../test/postgres.ts';
import { PgBossRunQueue } from './PgBossRunQueue.ts';
import type { RunQueueConsumer } from './RunWorkQueue.ts';

/** A consumer whose runs last until the test finishes them (or end at once with `instant`). */
function recordingConsumer(options: { instant?: boolean; failing?: string[] } = {}) {
  const started: Array<{ runId: string; at: number }> = [];
  const interrupted: string[] = [];
  const finishers = new Map<string, () => void>();
  const listeners = new Set<() => void>();
  const consumer: RunQueueConsumer = {
    run: ({ runId }) =>
      new Promise<void>((resolve, reject) => {
        started.push({ runId, at: Date.now() });
        for (const listener of listeners) listener();
        if (options.failing?.includes(runId)) reject(new Error(`${runId} breaks its worker`));
        else if (options.instant) resolve();
        else finishers.set(runId, resolve);
      }),
    interrupt: (runId) => interrupted.push(runId),
  };
  return {
    consumer,
    started,
    interrupted,
    ids: () => started.map((entry) => entry.runId),
    finish: (runId: string) => finishers.get(runId)?.(),
    /** Resolves once `count` runs in all have been handed out. */
    untilStarted: (count: number) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if (started.length < count) return;
          listeners.delete(check);
          resolve();
        };
        listeners.add(check);
        check();
      }),
  };
}

const logger = pino({ level: 'silent' });
/** A run of `ownerId`'s (one account for every run by default). */
const ticket = (runId: string, ownerId = '0190e000-0000-7000-8000-00000000a11c'): RunTicket => ({
  runId,
  ownerId,
});

describe('PgBossRunQueue (postgresql)', () => {
  let database: TestDatabase;
  const opened: PgBossRunQueue[] = [];
  const open = async (maxActivePerOwner?: number, queueName?: string) => {
    const queue = await PgBossRunQueue.open({
      connection: { connectionString: database.url },
      logger,
      pollingIntervalSec: 0.5,
      maxActivePerOwner,
      queueName,
    });
    opened.push(queue);
    return queue;
  };

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterEach(async () => {
    for (const queue of opened.splice(0)) {
      await queue.stopTaking();
      await queue.close();
    }
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('hands a queued run to a worker once, and counts what waits', async () => {
    const queue = await open();
    await queue.enqueue(ticket('r-waits'));
    expect(await queue.depth()).toBe(1);
    const worker = recordingConsumer({ instant: true });
    await queue.start(worker.consumer, { concurrency: 2 });
    await worker.untilStarted(1);
    await queue.enqueue(ticket('r-at-once'));
    await worker.untilStarted(2);
    expect(worker.ids()).toEqual(['r-waits', 'r-at-once']);
    expect(await queue.depth()).toBe(0);
  });

  it('runs at most `concurrency` at once on an instance', async () => {
    const queue = await open();
    const worker = recordingConsumer();
    await queue.start(worker.consumer, { concurrency: 2 });
    for (const id of ['c1', 'c2', 'c3']) await queue.enqueue(ticket(id));
    await worker.untilStarted(2);
    // A third worker would have fetched c3 by now: the queue still counts it as waiting.
    expect(await queue.depth()).toBe(1);
    expect(worker.started).toHaveLength(2);
    worker.finish(worker.ids()[0] as string);
    await worker.untilStarted(3);
    expect(new Set(worker.ids())).toEqual(new Set(['c1', 'c2', 'c3']));
    for (const id of worker.ids()) worker.finish(id);
  });

  it('holds a run enqueued with a delay until its time', async () => {
    const queue = await open();
    const worker = recordingConsumer({ instant: true });
    await queue.start(worker.consumer, { concurrency: 1 });
    const sentAt = Date.now();
    await queue.enqueue(ticket('r-later'), { delayMs: 2_000 });
    expect(await queue.depth()).toBe(1);
    await worker.untilStarted(1);
    expect(worker.started[0]?.runId).toBe('r-later');
    expect(worker.started[0]!.at - sentAt).toBeGreaterThanOrEqual(1_500);
  });

  it('tries a run once: a worker that fails does not get it again', async () => {
    const queue = await open();
    const worker = recordingConsumer({ instant: true, failing: ['r-breaks'] });
    await queue.start(worker.consumer, { concurrency: 1 });
    await queue.enqueue(ticket('r-breaks'));
    await worker.untilStarted(1);
    await queue.enqueue(ticket('r-next'));
    await worker.untilStarted(2);
    await queue.enqueue(ticket('r-last'));
    await worker.untilStarted(3);
    expect(worker.ids()).toEqual(['r-breaks', 'r-next', 'r-last']);
  });

  it('passes an interrupt to the worker of this instance', async () => {
    const queue = await open();
    const worker = recordingConsumer();
    await queue.start(worker.consumer, { concurrency: 1 });
    await queue.enqueue(ticket('r-cancel'));
    await worker.untilStarted(1);
    queue.interrupt('r-cancel');
    expect(worker.interrupted).toEqual(['r-cancel']);
    worker.finish('r-cancel');
  });

  it('shares the runs between instances, each run handed out once', async () => {
    const [a, b] = [await open(), await open()];
    const worker = recordingConsumer({ instant: true });
    await a.start(worker.consumer, { concurrency: 2 });
    await b.start(worker.consumer, { concurrency: 2 });
    const ids = Array.from({ length: 20 }, (_, i) => `shared-${i}`);
    for (const [i, id] of ids.entries()) await (i % 2 ? a : b).enqueue(ticket(id));
    await worker.untilStarted(ids.length);
    expect(worker.ids().sort()).toEqual([...ids].sort());
    expect(await a.depth()).toBe(0);
  });

  it('is fair across accounts: one account’s 300 queued runs do not keep another’s waiting', async () => {
    // A queue of its own: the runs it leaves queued are no other test's.
    const [a, b] = [await open(1, 'fair-runs'), await open(1, 'fair-runs')];
    const worker = recordingConsumer();
    const A = '0190e000-0000-7000-8000-0000000000aa';
    const B = '0190e000-0000-7000-8000-0000000000bb';
    for (let i = 0; i < 300; i++) await a.enqueue(ticket(`fair-a-${i}`, A));
    // One after the other, so that A's first run is the one fetched first.
    await a.start(worker.consumer, { concurrency: 1 });
    await worker.untilStarted(1);
    await b.start(worker.consumer, { concurrency: 1 });
    // Two slots over two instances, one account's runs at most one at a time: the other waits.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(worker.ids()).toEqual(['fair-a-0']);
    await b.enqueue(ticket('fair-b-0', B));
    await worker.untilStarted(2);
    expect(worker.ids()).toEqual(['fair-a-0', 'fair-b-0']);
    // A's next takes the slot A's first leaves, and B's second goes ahead of A's 298 others.
    await b.enqueue(ticket('fair-b-1', B));
    worker.finish('fair-a-0');
    await worker.untilStarted(3);
    expect(worker.ids()[2]).toBe('fair-a-1');
    worker.finish('fair-b-0');
    await worker.untilStarted(4);
    expect(worker.ids()[3]).toBe('fair-b-1');
  });

  it('never runs more of an account’s runs at once than its bound, however many workers fetch at once', async () => {
    // Four workers over two instances, woken together by every send: their fetches overlap, and
    // each would see none of the account's jobs active as it starts.
    const [a, b] = [await open(1, 'bounded-runs'), await open(1, 'bounded-runs')];
    const ids = Array.from({ length: 12 }, (_, i) => `bounded-${i}`);
    let active = 0;
    let most = 0;
    const done: string[] = [];
    let allDone: () => void = () => {};
    const finished = new Promise<void>((resolve) => {
      allDone = resolve;
    });
    const consumer: RunQueueConsumer = {
      run: async ({ runId }) => {
        active++;
        most = Math.max(most, active);
        // The run's work: long enough for the other workers' fetches to land while it holds its slot.
        await new Promise((resolve) => setTimeout(resolve, 150));
        active--;
        done.push(runId);
        if (done.length === ids.length) allDone();
      },
      interrupt: () => {},
    };
    await a.start(consumer, { concurrency: 2 });
    await b.start(consumer, { concurrency: 2 });
    await Promise.all(ids.map((id, i) => (i % 2 ? a : b).enqueue(ticket(id))));
    await finished;
    expect(most).toBe(1);
    expect([...done].sort()).toEqual([...ids].sort());
  });

  it('stops handing out runs once it stops taking them', async () => {
    const queue = await open();
    const worker = recordingConsumer({ instant: true });
    await queue.start(worker.consumer, { concurrency: 1 });
    await queue.stopTaking();
    await queue.enqueue(ticket('r-after-stop'));
    const other = await open();
    const next = recordingConsumer({ instant: true });
    await other.start(next.consumer, { concurrency: 1 });
    await next.untilStarted(1);
    expect(next.ids()).toEqual(['r-after-stop']);
    expect(worker.ids()).toEqual([]);
  });
});
