import type { StopSignal } from '../shared/StopSignal.ts';
import type { RunLogStream } from './runRules.ts';

/** What a script runner needs to execute one run's script. */
export interface ScriptJob {
  readonly runId: string;
  /** An ES module with a default export, or a function body (http-api.md §11). */
  readonly script: string;
  /** Any JSON value (null when none was given). */
  readonly input: unknown;
  /** The run's variables: the process's whole environment. */
  readonly env: Readonly<Record<string, string>>;
  /** The deadline: past it the process group is killed and the outcome is `timed_out`. */
  readonly timeoutMs: number;
  /** The session's CDP WebSocket endpoint (its `connectUrl`), the script's only way out. */
  readonly cdpUrl: string;
}

/** One line the script's process produced (stdout, stderr, a page console message, a `log()` call). */
export interface ScriptOutput {
  readonly stream: Exclude<RunLogStream, 'system'> | 'system';
  readonly message: string;
  readonly timestamp: Date;
}

/** How a script's process ended. */
export type ScriptOutcome =
  /** The default export returned; `resultJson` is its JSON text (`null` for undefined), within the limit. */
  | { readonly kind: 'returned'; readonly resultJson: string; readonly exitCode: number | null }
  | {
      readonly kind: 'failed';
      readonly code:
        | 'script_error'
        | 'script_invalid'
        | 'result_too_large'
        | 'memory_limit'
        | 'runner_failed';
      readonly message: string;
      readonly exitCode: number | null;
    }
  /** Killed at the deadline. */
  | { readonly kind: 'timed_out'; readonly exitCode: number | null }
  /** Killed because `signal` aborted (a cancel, a shutdown). */
  | { readonly kind: 'aborted'; readonly exitCode: number | null };

/**
 * Executes one run's script in a process of its own, confined (no network but its browser), and
 * reports what it printed as it happens. Resolves once the process and its whole group are gone;
 * rejects only when the process could not be started at all.
 */
export interface ScriptRunner {
  run(job: ScriptJob, onOutput: (line: ScriptOutput) => void, signal: StopSignal): Promise<ScriptOutcome>;
}
