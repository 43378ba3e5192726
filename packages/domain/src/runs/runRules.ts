import { utf8Length } from '../shared/checks.ts';

/** Largest `input` of a run, as JSON text in UTF-8 bytes (http-api.md §11). */
export const RUN_INPUT_MAX_BYTES = 64 * 1024;
/** Largest `result` of a run, as JSON text in UTF-8 bytes; past it the run is FAILED `result_too_large`. */
export const RUN_RESULT_MAX_BYTES = 1024 * 1024;
/** Longest log line, in UTF-8 bytes; a longer one is cut and marked (`RUN_LOG_LINE_CUT_MARK`). */
export const RUN_LOG_LINE_MAX_BYTES = 16 * 1024;
/** What ends a log line that was cut at `RUN_LOG_LINE_MAX_BYTES`. */
export const RUN_LOG_LINE_CUT_MARK = ' …[line cut at 16 KiB]';
/** Longest `error.message` of a run, in UTF-8 bytes; a longer one is cut and marked (`RUN_ERROR_CUT_MARK`). */
export const RUN_ERROR_MESSAGE_MAX_BYTES = 4 * 1024;
/** What ends an `error.message` that was cut at `RUN_ERROR_MESSAGE_MAX_BYTES`. */
export const RUN_ERROR_CUT_MARK = ' …[message cut at 4 KiB]';
/** Largest page of runs or of log lines, in UTF-8 bytes of what it holds (a first item is always answered). */
export const RUN_PAGE_MAX_BYTES = 1024 * 1024;
/** Default of `RUN_MAX_LOG_BYTES`: a run's logs past it are dropped, after one `system` line saying so. */
export const RUN_MAX_LOG_BYTES_DEFAULT = 8 * 1024 * 1024;
/** `wait` of a run create or get, in seconds: 0 (answer at once) to 60. */
export const RUN_WAIT_MIN_SEC = 0;
export const RUN_WAIT_MAX_SEC = 60;
/** A run's own deadline (`timeoutSec`), seconds. */
export const RUN_TIMEOUT_MIN_SEC = 1;
export const RUN_TIMEOUT_MAX_SEC = 21_600;
/** The shortest session a run creates lives (the provider minimum); it is released when the run ends. */
export const RUN_SESSION_MIN_TIMEOUT_SEC = 60;
/** Page size of `GET /runs`. */
export const RUN_LIST_DEFAULT_LIMIT = 20;
export const RUN_LIST_MAX_LIMIT = 100;
/** Page size of `GET /runs/{id}/logs`. */
export const RUN_LOGS_DEFAULT_LIMIT = 100;
export const RUN_LOGS_MAX_LIMIT = 1000;
/** Default heap cap of a run's process (`RUN_MEMORY_MB`). */
export const RUN_MEMORY_MB_DEFAULT = 256;
/** Default runs one instance executes at once (`RUN_CONCURRENCY`). */
export const RUN_CONCURRENCY_DEFAULT = 2;
/** Default of `RUN_MAX_QUEUED_PER_OWNER`: past it, a run create is 429 `run_queue_full`. */
export const RUN_MAX_QUEUED_PER_OWNER_DEFAULT = 100;
/** Default of `RUN_MAX_WAITERS_PER_OWNER`: log streams and `wait` long polls one account holds open at once. */
export const RUN_MAX_WAITERS_PER_OWNER_DEFAULT = 16;

/**
 * Default of `RUN_MAX_ACTIVE_PER_OWNER` for `concurrency` worker slots: half of them, at least one,
 * so that another account always finds room.
 */
export function runMaxActivePerOwnerFor(concurrency: number): number {
  return Math.max(1, Math.floor(concurrency / 2));
}
/** How often a worker records that a run it executes is still alive. */
export const RUN_HEARTBEAT_INTERVAL_MS = 2_000;
/** A RUNNING run whose heartbeat is older than this has lost its worker: it ends FAILED `worker_lost`. */
export const RUN_HEARTBEAT_LAPSE_MS = 20_000;

/** Where a log line came from. */
export const RUN_LOG_STREAMS = ['stdout', 'stderr', 'console', 'system'] as const;
export type RunLogStream = (typeof RUN_LOG_STREAMS)[number];

/** Why a run did not succeed: the `code` of its `error`. */
export const RUN_ERROR_CODES = [
  /** The script threw; `message` is the error's message, the stack is in the logs. */
  'script_error',
  /** The script could not be loaded: a syntax error, a forbidden import. */
  'script_invalid',
  /** The returned value is not JSON, or its JSON is over `RUN_RESULT_MAX_BYTES`. */
  'result_too_large',
  /** Past `timeoutSec`. */
  'timed_out',
  /** Canceled by a request, or by the instance shutting down. */
  'canceled',
  /** The run's process was killed at its memory limit. */
  'memory_limit',
  /** The run's process ended without reporting (a crash, a signal). */
  'runner_failed',
  /** The worker executing it stopped answering (its heartbeat lapsed). */
  'worker_lost',
  /** Its session could not be created, or ended under it. */
  'session_failed',
] as const;
export type RunErrorCode = (typeof RUN_ERROR_CODES)[number];

/** Why a run failed, timed out or was canceled. */
export interface RunError {
  readonly code: RunErrorCode;
  readonly message: string;
}

/**
 * `message` cut to at most `RUN_LOG_LINE_MAX_BYTES` UTF-8 bytes, marked with `RUN_LOG_LINE_CUT_MARK`
 * when cut (never inside a character).
 */
export function capRunLogLine(message: string): string {
  return cutUtf8(message, RUN_LOG_LINE_MAX_BYTES, RUN_LOG_LINE_CUT_MARK);
}

/** `error` with its message cut to `RUN_ERROR_MESSAGE_MAX_BYTES`, marked with `RUN_ERROR_CUT_MARK` when cut. */
export function capRunError(error: RunError): RunError {
  const message = cutUtf8(error.message, RUN_ERROR_MESSAGE_MAX_BYTES, RUN_ERROR_CUT_MARK);
  return message === error.message ? error : { code: error.code, message };
}

/**
 * What one stored log line costs of its run's budget (`RUN_MAX_LOG_BYTES`): every byte of text it
 * stores, its stream's name as well as its message.
 */
export function runLogLineBytes(stream: RunLogStream, message: string): number {
  return stream.length + utf8Length(message);
}

/** `text` cut to at most `maxBytes` UTF-8 bytes, `mark` included, when longer (never inside a character). */
function cutUtf8(text: string, maxBytes: number, mark: string): string {
  if (text.length <= maxBytes / 4 || utf8Length(text) <= maxBytes) return text;
  const budget = maxBytes - utf8Length(mark);
  let bytes = 0;
  let end = 0;
  for (const char of text) {
    const size = utf8Length(char);
    if (bytes + size > budget) break;
    bytes += size;
    end += char.length;
  }
  return text.slice(0, end) + mark;
}
