import { STATUS_CODES } from 'node:http';
import type { Context } from 'koa';
import { ERROR_STATUS } from '../kernel/errors/errorStatus.ts';
import type { AnsweredError } from '../kernel/errors/HttpError.ts';
import type { ProblemCode } from '../kernel/errors/problemCodes.ts';

/** Browserbase's error body, which its SDKs read (`message` becomes the error's message). */
export interface BrowserbaseErrorBody {
  statusCode: number;
  /** The status's reason phrase, e.g. `Not Found`. */
  error: string;
  message: string;
  /** Browserdeck's stable error code and request id, beside Browserbase's fields. */
  code: ProblemCode;
  requestId: string;
}

/** Field paths as Browserbase names them, where a use case names them its own way. */
const BROWSERBASE_FIELD_NAMES: Readonly<Record<string, string>> = {
  timeoutSec: 'timeout',
  metadata: 'userMetadata',
  contextId: 'browserSettings.context.id',
};

/**
 * Answers `error` in Browserbase's shape `{ statusCode, error, message }` (the SDK's typed errors
 * come from the status; its message from `message`), with `Retry-After` when the error carries one.
 * A validation failure's message lists its fields, named as Browserbase names them.
 */
export function writeBrowserbaseError(ctx: Context, error: AnsweredError, requestId: string): void {
  const { status } = ERROR_STATUS[error.code];
  const fields = (error.errors ?? []).map(
    (e) => `${BROWSERBASE_FIELD_NAMES[e.path] ?? e.path}: ${e.message}`,
  );
  const body: BrowserbaseErrorBody = {
    statusCode: status,
    error: STATUS_CODES[status] ?? 'Error',
    // A validation failure is its fields; any other error's message already says what it is about.
    message: error.code === 'validation_failed' && fields.length > 0 ? fields.join('; ') : error.message,
    code: error.code,
    requestId,
  };
  ctx.status = status;
  ctx.body = body;
  ctx.type = 'application/json';
  // Browserbase's SDKs retry every 5xx; a 501 will not change on a retry.
  if (error.code === 'not_implemented') ctx.set('X-Should-Retry', 'false');
  if (error.retryAfterSec !== undefined && error.retryAfterSec > 0) {
    ctx.set('Retry-After', String(Math.ceil(error.retryAfterSec)));
  }
}
