import type { DomainError, FieldError } from '@browserdeck/domain';
import type { ProblemCode } from './problemCodes.ts';

/**
 * A failure the HTTP layer raises itself, before or around a use case: a transport-only code
 * (`HTTP_ERROR_CODES`: malformed JSON, a wrong method or media type, the cut-off) or a domain code
 * the transport shares (`not_found` for a path no route has, `payload_too_large` for a body). Like a
 * `DomainError`, its `message` is the problem's `detail` and never carries secrets.
 */
export class HttpError extends Error {
  readonly code: ProblemCode;
  readonly errors: FieldError[] | undefined = undefined;
  readonly retryAfterSec: number | undefined = undefined;

  constructor(code: ProblemCode, message: string) {
    super(message);
    this.name = 'HttpError';
    this.code = code;
  }
}

/** What an error writer answers: a use case's domain error or one the HTTP layer raised. */
export type AnsweredError = DomainError | HttpError;
