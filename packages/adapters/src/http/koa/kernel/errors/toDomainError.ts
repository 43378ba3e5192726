import { DomainError, ERROR_CODES } from '@browserdeck/domain';
import { type AnsweredError, HttpError } from './HttpError.ts';
import type { ProblemCode } from './problemCodes.ts';

const KNOWN_CODES: ReadonlySet<string> = new Set(ERROR_CODES);

/** Whether `error` is a domain error, also when it comes from a second copy of the domain package. */
export function isDomainError(error: unknown): error is DomainError {
  if (error instanceof DomainError) return true;
  if (!(error instanceof Error) || !('retryAfterSec' in error)) return false;
  const code: unknown = (error as { code?: unknown }).code;
  return typeof code === 'string' && KNOWN_CODES.has(code);
}

/**
 * The domain error that `error` stands for: itself, or what `translate` (e.g. the persistence adapter's
 * database-error translator) makes of it. `undefined` means an unexpected failure (500 `internal`).
 */
export function toDomainError(
  error: unknown,
  translate: ((error: unknown) => DomainError | undefined) | undefined,
): DomainError | undefined {
  if (isDomainError(error)) return error;
  if (!translate) return undefined;
  try {
    const translated = translate(error);
    return isDomainError(translated) ? translated : undefined;
  } catch {
    return undefined;
  }
}

/** Whether `error` is answered as itself: a domain error or an `HttpError`. */
export function isAnsweredError(error: unknown): error is AnsweredError {
  return error instanceof HttpError || isDomainError(error);
}

/** An error raised by the HTTP layer itself (bad media type, oversize body, unknown route, …). */
export function httpError(code: ProblemCode, message: string): HttpError {
  return new HttpError(code, message);
}
