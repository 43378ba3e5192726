import type { FieldError } from '@browserdeck/domain';
import type { Context } from 'koa';
import { mountPrefix } from '../routing/mountPrefix.ts';
import { ERROR_STATUS, problemType } from './errorStatus.ts';
import type { AnsweredError } from './HttpError.ts';
import type { ProblemCode } from './problemCodes.ts';

/** The RFC 9457 body of every error answer (http-api.md §2). */
export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ProblemCode;
  requestId: string;
  errors?: FieldError[];
}

/**
 * Builds the problem body for `error`. `detail` is the error's message, written for people; `type`
 * links the error's entry in `/docs` under `mountPrefix` (`''` at the root).
 */
export function problemBody(error: AnsweredError, requestId: string, mountPrefix = ''): ProblemBody {
  const { status, title } = ERROR_STATUS[error.code];
  const body: ProblemBody = {
    type: problemType(error.code, mountPrefix),
    title,
    status,
    detail: error.message,
    code: error.code,
    requestId,
  };
  if (error.errors && error.errors.length > 0) {
    body.errors = error.errors.map((e) => ({ path: e.path, message: e.message }));
  }
  return body;
}

/**
 * Answers the request with `error` as `application/problem+json`, with `Retry-After` when the error
 * carries one and `WWW-Authenticate` on 401 `unauthorized` (RFC 6750). Its `type` follows the prefix
 * the app is mounted under.
 */
export function writeProblem(ctx: Context, error: AnsweredError, requestId: string): void {
  const body = problemBody(error, requestId, mountPrefix(ctx));
  ctx.status = body.status;
  ctx.body = body;
  ctx.type = 'application/problem+json';
  if (error.retryAfterSec !== undefined && error.retryAfterSec > 0) {
    ctx.set('Retry-After', String(Math.ceil(error.retryAfterSec)));
  }
  if (error.code === 'unauthorized') ctx.set('WWW-Authenticate', 'Bearer');
}
