import type { ScriptOutcome } from '@browserdeck/domain';
import type { RunnerMessage } from './child/runnerProtocol.mts';

/** What is known of a run's process once it is gone. */
export interface RunnerEnd {
  /** Its `result` or `error` message; null when it sent neither. */
  readonly report: Extract<RunnerMessage, { type: 'result' | 'error' }> | null;
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  /** Killed at its deadline. */
  readonly timedOut: boolean;
  /** Killed because the run's signal aborted. */
  readonly aborted: boolean;
  /** V8 said on stderr that the heap ran out (`--max-old-space-size`). */
  readonly heapExhausted: boolean;
  /** Processes the kernel killed at the cgroup's memory limit. */
  readonly oomKills: number;
  /** The heap limit, for the message. */
  readonly memoryMb: number;
  /** What it sent that the runner protocol does not allow (it was killed for it), if anything. */
  readonly violation: string | null;
}

/** SIGABRT as a shell or bubblewrap reports a child it killed: 128 + 6. */
const ABORT_EXIT_CODE = 134;

/**
 * How a run ended, from what its process reported and how it went: a message the protocol does
 * not allow fails it first (`runner_failed`), then a report wins (the script was done), then a kill the runner made (abort, deadline), then the memory limits, else the process
 * died without a word (`runner_failed`).
 */
export function runOutcome(end: RunnerEnd): ScriptOutcome {
  const { report, exitCode } = end;
  if (end.violation !== null)
    return {
      kind: 'failed',
      code: 'runner_failed',
      message: `the script's process sent ${end.violation}`,
      exitCode,
    };
  if (report?.type === 'result') return { kind: 'returned', resultJson: report.json, exitCode };
  if (report?.type === 'error' && report.code !== 'runner_failed')
    return { kind: 'failed', code: report.code, message: report.message, exitCode };
  if (end.aborted) return { kind: 'aborted', exitCode };
  if (end.timedOut) return { kind: 'timed_out', exitCode };
  const aborted = end.signal === 'SIGABRT' || exitCode === ABORT_EXIT_CODE;
  if (end.oomKills > 0 || (end.heapExhausted && (aborted || exitCode !== 0)))
    return {
      kind: 'failed',
      code: 'memory_limit',
      message: `the script ran out of memory (limit ${end.memoryMb} MiB)`,
      exitCode,
    };
  if (report) return { kind: 'failed', code: 'runner_failed', message: report.message, exitCode };
  const how = end.signal ? `signal ${end.signal}` : `code ${exitCode}`;
  return {
    kind: 'failed',
    code: 'runner_failed',
    message: `the script's process ended (${how}) without reporting a result`,
    exitCode,
  };
}
