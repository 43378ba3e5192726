import { DomainError } from '@browserdeck/domain';
import type { Middleware } from 'koa';
import { writeBrowserbaseError } from '../../browserbase/writeBrowserbaseError.ts';
import { httpState } from '../../HttpState.ts';
import { toDomainError } from '../errors/toDomainError.ts';
import { writeProblem } from '../errors/writeProblem.ts';

/** What errorHandler needs. */
export interface ErrorHandlerOptions {
  /** Turns adapter errors (e.g. database constraint violations) into domain errors. */
  translateError?: ((error: unknown) => DomainError | undefined) | undefined;
}

/**
 * Turns every failure below it into an `application/problem+json` answer. Domain errors (also those
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
          'An unexpected error occurred. Quote the request id when reporting it.',
        );
      } else {
        if (domainError !== error) state.log.warn({ err: error, code: domainError.code }, 'translated error');
        else if (domainError.cause !== undefined)
          state.log.warn({ err: domainError.cause }, domainError.message);
        answer = domainError;
      }
      state.errorCode = answer.code;
      if (state.errorFormat === 'browserbase') writeBrowserbaseError(ctx, answer, state.requestId);
      else writeProblem(ctx, answer, state.requestId);
    }
  };
}
