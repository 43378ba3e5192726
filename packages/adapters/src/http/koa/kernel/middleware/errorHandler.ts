import type { DomainError } from '@browserdeck/domain';
import type { Middleware } from 'koa';
import { httpState } from '../../HttpState.ts';
import type { AnsweredError } from '../errors/HttpError.ts';
import { ResponseContractError } from '../errors/ResponseContractError.ts';
import { httpError, isAnsweredError, toDomainError } from '../errors/toDomainError.ts';
import { writeProblem } from '../errors/writeProblem.ts';
import { errorContractBreach } from '../routing/errorContractBreach.ts';

/** What errorHandler needs. */
export interface ErrorHandlerOptions {
  /** Turns adapter errors (e.g. database constraint violations) into domain errors. */
  translateError?: ((error: unknown) => DomainError | undefined) | undefined;
  /**
   * Refuse an answer whose code the matched route does not document (`HttpSettings.validateResponses`,
   * for tests): it becomes a 500 naming the route and the code.
   */
  validateErrors?: boolean | undefined;
}

/**
 * Turns every failure below it into an error answer: written by the matched route's `writeError` (or
 * its path's dialect), an `application/problem+json` problem by default. Domain errors (also those
 * `translateError` recognises) and the HTTP layer's own `HttpError`s map through the status table;
 * anything else is a 500 `internal` whose cause is logged with the request id and never shown to the
 * caller.
 */
export function errorHandler(options: ErrorHandlerOptions = {}): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      const state = httpState(ctx);
      const known = isAnsweredError(error) ? error : toDomainError(error, options.translateError);
      let answer: AnsweredError;
      if (!known || known.code === 'internal') {
        state.log.error({ err: error }, 'unhandled error');
        answer = httpError(
          'internal',
          error instanceof ResponseContractError
            ? error.message
            : 'An unexpected error occurred. Quote the request id when reporting it.',
        );
      } else {
        if (known !== error) state.log.warn({ err: error, code: known.code }, 'translated error');
        else if (known.cause !== undefined) state.log.warn({ err: known.cause }, known.message);
        answer = known;
      }
      const breach = options.validateErrors && state.route && errorContractBreach(state.route, answer.code);
      if (breach) {
        state.log.error({ err: breach, code: answer.code }, 'error contract');
        answer = httpError('internal', breach.message);
      }
      state.errorCode = answer.code;
      (state.writeError ?? writeProblem)(ctx, answer, state.requestId);
    }
  };
}
