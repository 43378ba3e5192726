import { DomainError } from '@browserdeck/domain';
import type { Middleware } from 'koa';
import { httpState } from '../../HttpState.ts';
import { ResponseContractError } from '../errors/ResponseContractError.ts';
import { toDomainError } from '../errors/toDomainError.ts';
import { writeProblem } from '../errors/writeProblem.ts';

/** What errorHandler needs. */
export interface ErrorHandlerOptions {
  /** Turns adapter errors (e.g. database constraint violations) into domain errors. */
  translateError?: ((error: unknown) => DomainError | undefined) | undefined;
}

/**
 * Turns every failure below it into an error answer: written by the matched route's `writeError` (or
 * its path's dialect), an `application/problem+json` problem by default. Domain errors (also those
 * `translateError` recognises) map through the status table; anything else is a 500 `internal` whose
 * cause is logged with the request id and never shown to the caller.
 */
export function errorHandler(options: ErrorHandlerOptions = {}): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      const state = httpState(ctx);
      const domainError = toDomainError(error, options.translateError);
      let answer: DomainError;
      if (!domainError || domainError.code === 'internal') {
        state.log.error({ err: error }, 'unhandled error');
        answer = new DomainError(
          'internal',
          error instanceof ResponseContractError
            ? error.message
            : 'An unexpected error occurred. Quote the request id when reporting it.',
        );
      } else {
        if (domainError !== error) state.log.warn({ err: error, code: domainError.code }, 'translated error');
        else if (domainError.cause !== undefined)
          state.log.warn({ err: domainError.cause }, domainError.message);
        answer = domainError;
      }
      state.errorCode = answer.code;
      (state.writeError ?? writeProblem)(ctx, answer, state.requestId);
    }
  };
}
