import { describe, expect, it } from 'vitest';
import { type RunnerEnd, runOutcome } from './runOutcome.ts';

const end = (overrides: Partial<RunnerEnd>): RunnerEnd => ({
  report: null,
  exitCode: 0,
  signal: null,
  timedOut: false,
  aborted: false,
  heapExhausted: false,
  oomKills: 0,
  memoryMb: 256,
  violation: null,
  ...overrides,
});

describe('runOutcome', () => {
  it('fails a process that broke the runner protocol, whatever it reported', () => {
    const broke = end({
      report: { type: 'result', json: '1', scriptMs: 3 },
      violation: 'a log message the protocol does not allow at stream: Invalid option',
    });
    expect(runOutcome(broke)).toEqual({
      kind: 'failed',
      code: 'runner_failed',
      message:
        "the script's process sent a log message the protocol does not allow at stream: Invalid option",
      exitCode: 0,
    });
  });

  it('returns what the script returned, and its failures as it reported them', () => {
    expect(runOutcome(end({ report: { type: 'result', json: '{"a":1}', scriptMs: 3 } }))).toEqual({
      kind: 'returned',
      resultJson: '{"a":1}',
      exitCode: 0,
    });
    expect(
      runOutcome(
        end({
          exitCode: 1,
          report: { type: 'error', code: 'script_invalid', message: 'Unexpected token', scriptMs: 1 },
        }),
      ),
    ).toEqual({ kind: 'failed', code: 'script_invalid', message: 'Unexpected token', exitCode: 1 });
  });

  it('a report wins over a kill that came after it', () => {
    expect(
      runOutcome(
        end({ report: { type: 'result', json: 'null', scriptMs: 1 }, timedOut: true, signal: 'SIGKILL' }),
      ),
    ).toMatchObject({ kind: 'returned' });
  });

  it('reports the kills the runner made: abort before deadline', () => {
    expect(runOutcome(end({ exitCode: null, signal: 'SIGKILL', aborted: true, timedOut: true }))).toEqual({
      kind: 'aborted',
      exitCode: null,
    });
    expect(runOutcome(end({ exitCode: 137, timedOut: true }))).toEqual({ kind: 'timed_out', exitCode: 137 });
  });

  it("fails with memory_limit when V8's heap ran out or the kernel killed at the cgroup's limit", () => {
    expect(runOutcome(end({ exitCode: 134, heapExhausted: true }))).toMatchObject({
      kind: 'failed',
      code: 'memory_limit',
      message: expect.stringContaining('256 MiB'),
    });
    expect(runOutcome(end({ exitCode: null, signal: 'SIGABRT', heapExhausted: true }))).toMatchObject({
      code: 'memory_limit',
    });
    expect(runOutcome(end({ exitCode: 137, oomKills: 1 }))).toMatchObject({ code: 'memory_limit' });
    // A script that only prints the words did not run out of memory.
    expect(runOutcome(end({ exitCode: 0, heapExhausted: true }))).toMatchObject({ code: 'runner_failed' });
  });

  it('fails with runner_failed when the process ended without a word, or the runner itself failed', () => {
    expect(runOutcome(end({ exitCode: null, signal: 'SIGSEGV' }))).toEqual({
      kind: 'failed',
      code: 'runner_failed',
      message: "the script's process ended (signal SIGSEGV) without reporting a result",
      exitCode: null,
    });
    expect(
      runOutcome(
        end({
          exitCode: 1,
          report: { type: 'error', code: 'runner_failed', message: 'connect ECONNREFUSED', scriptMs: null },
        }),
      ),
    ).toEqual({ kind: 'failed', code: 'runner_failed', message: 'connect ECONNREFUSED', exitCode: 1 });
  });
});
