import { aRun, givenRunWorld } from '@browserdeck/testing';
import { describe, expect, it } from 'vitest';
import { asUser } from '../access/Caller.ts';
import { utf8Length } from '../shared/checks.ts';
import type { Run } from './Run.ts';
import type { RunLogLine } from './RunLogStore.ts';
import { RUN_LOG_LINE_MAX_BYTES, RUN_PAGE_MAX_BYTES } from './runRules.ts';
import type { RunStatus } from './runStatus.ts';

async function setUp(status: RunStatus = 'RUNNING', lineCount = 5) {
  const world = await givenRunWorld();
  const run: Run = aRun({ projectId: world.project.id, ownerId: world.ownerId, status });
  await world.runRepository.add(run);
  const lines: RunLogLine[] = Array.from({ length: lineCount }, (_, i) => ({
    seq: i + 1,
    timestamp: new Date(world.clock.now().getTime() + i),
    stream: i % 2 ? 'stderr' : 'stdout',
    message: `line ${i + 1}`,
  }));
  await world.runLogs.append(run.id, lines);
  const logs = (query: { cursor?: string; limit?: number } = {}, caller = world.owner) =>
    world.runs.logs.execute({ caller, projectId: world.project.id, runId: run.id, ...query });
  return { ...world, run, lines, logs };
}

describe('GetRunLogs', () => {
  it('pages a running run’s lines by cursor; the cursor stays put while nothing new is stored', async () => {
    const { logs, lines } = await setUp('RUNNING');
    const first = await logs({ limit: 2 });
    expect(first).toEqual({ logs: lines.slice(0, 2), nextCursor: '2' });
    expect(await logs({ cursor: '2', limit: 10 })).toEqual({ logs: lines.slice(2), nextCursor: '5' });
    expect(await logs({ cursor: '5' })).toEqual({ logs: [], nextCursor: '5' });
  });

  it('answers nextCursor null once the run has ended and no line is left', async () => {
    const { logs, lines } = await setUp('SUCCEEDED');
    expect(await logs({ limit: 5 })).toEqual({ logs: lines, nextCursor: '5' });
    expect(await logs({ cursor: '5' })).toEqual({ logs: [], nextCursor: null });
    expect(await logs({ cursor: '3' })).toEqual({ logs: lines.slice(3), nextCursor: null });
  });

  it('bounds a page by bytes: 1000 lines of 16 KiB answer at most 1 MiB, then the next page goes on', async () => {
    const { logs, runLogs, run } = await setUp('SUCCEEDED', 0);
    const big = Array.from({ length: 1000 }, (_, i) => ({
      seq: i + 1,
      timestamp: new Date(),
      stream: 'stdout' as const,
      message: 'x'.repeat(RUN_LOG_LINE_MAX_BYTES),
    }));
    await runLogs.append(run.id, big);
    const first = await logs({ limit: 1000 });
    const bytes = (page: typeof first) => utf8Length(JSON.stringify(page.logs));
    expect(bytes(first)).toBeLessThanOrEqual(RUN_PAGE_MAX_BYTES);
    expect(first.logs.length).toBeGreaterThan(50);
    expect(first.nextCursor).toBe(String(first.logs.length));
    const second = await logs({ cursor: first.nextCursor!, limit: 1000 });
    expect(second.logs[0]!.seq).toBe(first.logs.length + 1);
    expect(bytes(second)).toBeLessThanOrEqual(RUN_PAGE_MAX_BYTES);
    expect(second.nextCursor).not.toBeNull();
  });

  it('refuses a cursor that is not a decimal seq, and a limit outside 1..1000', async () => {
    const { logs } = await setUp();
    for (const cursor of ['abc', '-1', '1.5', '01', '', '99999999999999999']) {
      await expect(logs({ cursor })).rejects.toMatchObject({
        code: 'validation_failed',
        errors: [{ path: 'cursor' }],
      });
    }
    for (const limit of [0, 1001, 2.5]) {
      await expect(logs({ limit })).rejects.toMatchObject({ errors: [{ path: 'limit' }] });
    }
  });

  it('answers not_found for another user', async () => {
    const { logs } = await setUp();
    await expect(logs({}, asUser('owner-2'))).rejects.toMatchObject({ code: 'not_found' });
  });
});
