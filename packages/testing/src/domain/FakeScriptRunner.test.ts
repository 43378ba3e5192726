import type { ScriptJob, ScriptOutput } from '@browserdeck/domain';
import { describe, expect, it } from 'vitest';
import { FakeScriptRunner } from './FakeScriptRunner.ts';
import { ManualClock } from './ManualClock.ts';

const job = (runId: string): ScriptJob => ({
  runId,
  script: 'return 1;',
  input: null,
  env: {},
  timeoutMs: 1000,
  cdpUrl: 'ws://127.0.0.1:1/devtools/browser/x',
});

describe('FakeScriptRunner', () => {
  it('plays queued plays in turn, then the default, recording jobs and printing lines', async () => {
    const runner = new FakeScriptRunner({ clock: new ManualClock('2026-03-01T00:00:00.000Z') });
    runner.willPlay({
      output: ['a', { stream: 'stderr', message: 'b' }],
      outcome: { kind: 'timed_out', exitCode: null },
    });
    const lines: ScriptOutput[] = [];
    const never = new AbortController().signal;
    expect(await runner.run(job('r1'), (l) => lines.push(l), never)).toEqual({
      kind: 'timed_out',
      exitCode: null,
    });
    expect(await runner.run(job('r2'), (l) => lines.push(l), never)).toEqual({
      kind: 'returned',
      resultJson: 'null',
      exitCode: 0,
    });
    expect(lines.map((l) => [l.stream, l.message, l.timestamp.toISOString()])).toEqual([
      ['stdout', 'a', '2026-03-01T00:00:00.000Z'],
      ['stderr', 'b', '2026-03-01T00:00:00.000Z'],
    ]);
    expect(runner.jobs.map((j) => j.runId)).toEqual(['r1', 'r2']);
  });

  it('holds a job until finish, and ends it aborted when its signal aborts', async () => {
    const runner = new FakeScriptRunner();
    runner.willPlay({ hold: true }, { hold: true });
    const lines: string[] = [];
    const first = runner.run(job('r1'), (l) => lines.push(l.message), new AbortController().signal);
    await runner.untilHeld();
    runner.emit('live');
    runner.finish({ kind: 'failed', code: 'script_error', message: 'x', exitCode: 1 });
    expect(await first).toMatchObject({ kind: 'failed', code: 'script_error' });
    expect(lines).toEqual(['live']);
    const controller = new AbortController();
    const second = runner.run(job('r2'), () => {}, controller.signal);
    expect((await runner.untilHeld()).runId).toBe('r2');
    controller.abort();
    expect(await second).toEqual({ kind: 'aborted', exitCode: null });
    expect(runner.holding).toEqual([]);
  });

  it('rejects when told the process could not start', async () => {
    const runner = new FakeScriptRunner().willPlay({ rejectWith: new Error('spawn failed') });
    await expect(runner.run(job('r'), () => {}, new AbortController().signal)).rejects.toThrow(
      'spawn failed',
    );
  });
});
