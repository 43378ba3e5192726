import { aRun, givenRunWorld, RunEndingDuringRead } from '@browserdeck/testing';
import { describe, expect, it, vi } from 'vitest';
import { asUser } from '../access/Caller.ts';
import { FollowRunLogs, type RunLogEvent } from './FollowRunLogs.ts';
import type { RunLogLine } from './RunLogStore.ts';
import { RunWaiters } from './RunWaiters.ts';
import { StopSource } from './StopSource.ts';

async function setUp() {
  const world = await givenRunWorld();
  const run = aRun({ projectId: world.project.id, ownerId: world.ownerId, status: 'RUNNING' });
  await world.runRepository.add(run);
  const line = (seq: number): RunLogLine => ({
    seq,
    timestamp: world.clock.now(),
    stream: 'stdout',
    message: `line ${seq}`,
  });
  const write = async (...seqs: number[]) => {
    await world.runLogs.append(run.id, seqs.map(line));
    world.runChanges.notify(run.id);
  };
  const end = async () => {
    const stored = (await world.runRepository.findById(run.id))!;
    stored.end({ status: 'SUCCEEDED', result: 1, exitCode: 0 }, world.clock.now());
    await world.runRepository.update(stored, 'RUNNING');
    world.runChanges.notify(run.id);
  };
  const follow = (afterSeq = 0, signal = new StopSource(), caller = world.owner) =>
    world.runs.followLogs.execute({ caller, projectId: world.project.id, runId: run.id, afterSeq, signal });
  const describeEvent = (e: RunLogEvent) =>
    e.type === 'line' ? `line ${e.line.seq}` : `end ${e.run.status}`;
  return { ...world, run, line, write, end, follow, describeEvent };
}

describe('FollowRunLogs', () => {
  it('yields stored lines, then new ones as they are stored, then the ended run once its last lines are read', async () => {
    const { follow, write, end, run, runChanges, runLogs, line, describeEvent } = await setUp();
    await write(1, 2);
    const events: string[] = [];
    const iterator = (await follow())[Symbol.asyncIterator]();
    const take = async () => {
      const next = await iterator.next();
      if (!next.done) events.push(describeEvent(next.value));
      return next;
    };
    await take();
    await take();
    const third = take();
    await runChanges.untilWaiting(run.id);
    await write(3);
    await third;
    const fourth = take();
    await runChanges.untilWaiting(run.id);
    // The run ends with lines nobody was told of yet: they come before the end.
    await runLogs.append(run.id, [line(4), line(5)]);
    await end();
    await fourth;
    while (!(await take()).done) {}
    expect(events).toEqual(['line 1', 'line 2', 'line 3', 'line 4', 'line 5', 'end SUCCEEDED']);
  });

  it('resumes after afterSeq, and ends at once for a run that has ended', async () => {
    const { follow, write, end, describeEvent } = await setUp();
    await write(1, 2, 3);
    await end();
    const events: string[] = [];
    for await (const event of await follow(2)) events.push(describeEvent(event));
    expect(events).toEqual(['line 3', 'end SUCCEEDED']);
  });

  it('reads more lines than one page holds before the end', async () => {
    const { follow, write, end } = await setUp();
    await write(...Array.from({ length: 2500 }, (_, i) => i + 1));
    await end();
    let lines = 0;
    let ended = false;
    for await (const event of await follow()) {
      if (event.type === 'line') lines++;
      else ended = true;
    }
    expect([lines, ended]).toEqual([2500, true]);
  });

  describe('a run that ends during the read before a wait', () => {
    /** A follower over a repository that ends the run during the read it is armed for. */
    async function racing() {
      const world = await setUp();
      const { runRepository, runChanges, clock, projects, runLogs, owner, project, run } = world;
      const repository = new RunEndingDuringRead(runRepository, runChanges, clock);
      const followLogs = new FollowRunLogs({
        projects,
        runs: repository,
        runLogs,
        runChanges,
        waiters: new RunWaiters(),
      });
      const follow = async () =>
        (
          await followLogs.execute({
            caller: owner,
            projectId: project.id,
            runId: run.id,
            afterSeq: 0,
            signal: new StopSource(),
          })
        )[Symbol.asyncIterator]();
      return { ...world, repository, follow };
    }

    // A follower that waited before reading would miss that end and see it only at its 1 s poll:
    // a wait that ran out (`timedOut`) is that missed wake-up.
    it('ends without waiting out its poll when the end comes during the first read', async () => {
      const { follow, repository, runChanges, describeEvent, write } = await racing();
      await write(1);
      repository.endOnNextRead();
      const iterator = await follow();
      const events: string[] = [];
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
        events.push(describeEvent(next.value));
      }
      expect(repository.endings).toBe(1);
      expect(events).toEqual(['line 1', 'end CANCELED']);
      expect(runChanges.timedOut).toEqual([]);
    });

    it('ends without waiting out its poll when the end comes during a read after a wake-up', async () => {
      const { follow, repository, runChanges, describeEvent, write, run } = await racing();
      await write(1);
      const iterator = await follow();
      const events: string[] = [];
      const take = async () => {
        const next = await iterator.next();
        if (!next.done) events.push(describeEvent(next.value));
        return next;
      };
      await take();
      const second = take();
      await runChanges.untilWaiting(run.id);
      repository.endOnNextRead();
      await write(2);
      await second;
      while (!(await take()).done) {}
      expect(repository.endings).toBe(1);
      expect(events).toEqual(['line 1', 'line 2', 'end CANCELED']);
      expect(runChanges.timedOut).toEqual([]);
    });
  });

  it('stops quietly when its signal aborts', async () => {
    const { follow, run, runChanges, write } = await setUp();
    await write(1);
    const signal = new StopSource();
    const events: RunLogEvent[] = [];
    const following = (async () => {
      for await (const event of await follow(0, signal)) events.push(event);
    })();
    // Aborted while it waits for more, after the stored line was read.
    await vi.waitFor(() => expect(events).toHaveLength(1));
    await runChanges.untilWaiting(run.id);
    signal.abort();
    await following;
    expect(events.map((e) => e.type)).toEqual(['line']);
  });

  it('refuses another user before yielding anything', async () => {
    const { follow } = await setUp();
    await expect(follow(0, new StopSource(), asUser('owner-2'))).rejects.toMatchObject({ code: 'not_found' });
  });
});
