import { aRun, givenRunWorld } from '@browserdeck/testing';
import { describe, expect, it } from 'vitest';
import { RunWaiters } from './RunWaiters.ts';
import { StopSource } from './StopSource.ts';

describe('RunWaiters', () => {
  it('counts per account, refuses one past the most with 429 rate_limited, and leaves once', () => {
    const waiters = new RunWaiters(2);
    const leaveA = waiters.enter('a');
    waiters.enter('a');
    expect(() => waiters.enter('a')).toThrow(
      expect.objectContaining({ code: 'rate_limited', retryAfterSec: 1 }),
    );
    waiters.enter('b');
    leaveA();
    leaveA();
    expect(waiters.heldBy('a')).toBe(1);
    waiters.enter('a');
    expect(() => waiters.enter('a')).toThrow(expect.objectContaining({ code: 'rate_limited' }));
  });
});

describe('log streams and wait long polls share the account’s waiters', () => {
  async function setUp() {
    const world = await givenRunWorld({ maxWaitersPerOwner: 16 });
    const run = aRun({ projectId: world.project.id, ownerId: world.ownerId, status: 'RUNNING' });
    await world.runRepository.add(run);
    const follow = (signal: StopSource) =>
      world.runs.followLogs.execute({
        caller: world.owner,
        projectId: world.project.id,
        runId: run.id,
        afterSeq: 0,
        signal,
      });
    const wait = (signal: StopSource, whenWaitersFull?: 'answer') =>
      world.runs.get.execute({
        caller: world.owner,
        projectId: world.project.id,
        runId: run.id,
        waitSec: 60,
        signal,
        whenWaitersFull,
      });
    return { ...world, run, follow, wait };
  }

  it('refuses the 17th stream, takes one again once a stream ends or its client goes', async () => {
    const { follow, waiters, ownerId } = await setUp();
    const signals = Array.from({ length: 16 }, () => new StopSource());
    for (const signal of signals) await follow(signal);
    expect(waiters.heldBy(ownerId)).toBe(16);
    await expect(follow(new StopSource())).rejects.toMatchObject({ code: 'rate_limited' });
    // A stream whose client went, never read, leaves all the same.
    signals[0]!.abort();
    expect(waiters.heldBy(ownerId)).toBe(15);
    await follow(new StopSource());
    expect(waiters.heldBy(ownerId)).toBe(16);
  });

  it('counts a wait as a waiter: refused past the most, or answered at once when a create asks so', async () => {
    const { follow, wait, waiters, ownerId, run } = await setUp();
    for (let i = 0; i < 15; i++) await follow(new StopSource());
    const holding = new StopSource();
    const held = wait(holding);
    // The wait counts once it has read the run (a few awaits in).
    while (waiters.heldBy(ownerId) < 16) await Promise.resolve();
    await expect(wait(new StopSource())).rejects.toMatchObject({ code: 'rate_limited' });
    expect(await wait(new StopSource(), 'answer')).toMatchObject({ id: run.id, status: 'RUNNING' });
    holding.abort();
    expect(await held).toMatchObject({ id: run.id });
    expect(waiters.heldBy(ownerId)).toBe(15);
  });
});
