/**
 * What the service and a run's process say to each other: JSON lines, the service's on the child's
 * fd 4 (first `RunnerBoot` at spawn, then one `RunnerJob`), the child's on its fd 3 (`RunnerMessage`).
 * The pipes are the process's own, so nothing a script does reaches another run.
 */

/** Sent at spawn, before any run is known: what the process needs to get ready. */
export interface RunnerBoot {
  /** The run's folder: the only one it writes. */
  readonly runDir: string;
  /** `file:` URL of playwright-core's ES module entry. */
  readonly playwrightUrl: string;
}

/** The run itself. */
export interface RunnerJob {
  readonly script: string;
  readonly input: unknown;
  /** The whole environment the script sees (`process.env` and its `env`). */
  readonly env: Readonly<Record<string, string>>;
  /** The Unix socket relaying each WebSocket to the session's CDP endpoint. */
  readonly socketPath: string;
  /** Largest result, as JSON text in UTF-8 bytes. */
  readonly resultMaxBytes: number;
  /** A `log()` or console message is cut to this many characters before it is sent. */
  readonly messageMaxChars: number;
  /** An error's message is cut to this many characters before it is sent. */
  readonly errorMaxChars: number;
}

/** Why a script did not return a value, as the process knows it. */
export type RunnerFailureCode = 'script_error' | 'script_invalid' | 'result_too_large' | 'runner_failed';

/**
 * What the process reports: `ready` once before its job, then at most one `connected`, any number
 * of `log`s and one `result` or `error`. The service checks each field's type and size, and the
 * order (`readRunnerMessage`, `RunnerProcess`): a script can write fd 3 too, and anything else ends
 * its run `runner_failed`.
 */
export type RunnerMessage =
  | { readonly type: 'ready' }
  | { readonly type: 'connected'; readonly connectMs: number }
  | { readonly type: 'log'; readonly stream: 'stdout' | 'stderr' | 'console'; readonly message: string }
  | { readonly type: 'result'; readonly json: string; readonly scriptMs: number }
  | {
      readonly type: 'error';
      readonly code: RunnerFailureCode;
      readonly message: string;
      readonly scriptMs: number | null;
    };
