import type { Context } from 'koa';
import type { AnsweredError } from './HttpError.ts';

/**
 * Writes one error answer in a dialect's shape: RFC 9457 problems (`writeProblem`, the default) or,
 * say, Browserbase's `{ statusCode, error, message }`. A route carries its writer (`writeError`);
 * the kernel knows none but the default.
 */
export type ErrorWriter = (ctx: Context, error: AnsweredError, requestId: string) => void;

/**
 * The error writer of requests no route has taken yet (404, 405, a failure before matching) whose
 * dialect their path already tells, e.g. the Browserbase-compatible API's `/v1/sessions/…`.
 */
export interface ErrorDialect {
  /** Whether a request path belongs to the dialect. */
  matches(path: string): boolean;
  writeError: ErrorWriter;
}
