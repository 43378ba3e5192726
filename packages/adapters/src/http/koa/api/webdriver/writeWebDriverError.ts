import type { Context } from 'koa';
import { type W3cErrorCode, w3cErrorBody } from '../../../../browsers/webdriver/w3cError.ts';
import { ERROR_STATUS } from '../../kernel/errors/errorStatus.ts';
import type { AnsweredError } from '../../kernel/errors/HttpError.ts';
import type { ProblemCode } from '../../kernel/errors/problemCodes.ts';

/** The W3C error a WebDriver client hears for our codes: a session it cannot use is `invalid session id`. */
function w3cCodeOf(code: ProblemCode): W3cErrorCode {
  switch (code) {
    case 'not_found':
    case 'unauthorized':
    case 'session_ended':
      return 'invalid session id';
    case 'request_timeout':
      return 'timeout';
    default:
      return 'unknown error';
  }
}

/**
 * The WebDriver endpoints' error writer: a W3C WebDriver error body (`{ value: { error, message,
 * stacktrace } }`, which every WebDriver client decodes into its own error) with our status for the
 * code, so a Selenium client hears `invalid session id` for an unknown session, a wrong key or an
 * ended session, with our `detail` as the message.
 */
export function writeWebDriverError(ctx: Context, error: AnsweredError, _requestId: string): void {
  ctx.status = ERROR_STATUS[error.code].status;
  ctx.body = w3cErrorBody(w3cCodeOf(error.code), error.message);
  ctx.type = 'application/json';
  ctx.set('Cache-Control', 'no-store');
  if (error.retryAfterSec !== undefined && error.retryAfterSec > 0)
    ctx.set('Retry-After', String(Math.ceil(error.retryAfterSec)));
}
