import type { Middleware } from 'koa';
import { httpError } from '../errors/toDomainError.ts';
import { httpState } from '../HttpState.ts';

/** SPEC §10: a request that takes longer than this is cut off with 503. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

/**
 * Cuts off a request that runs longer than `timeoutMs` with 503 `request_timeout`. The late handler
 * keeps running (it cannot be cancelled) but is told not to write the response.
 */
export function requestTimeout(timeoutMs: number): Middleware {
  return async (ctx, next) => {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => {
        httpState(ctx).timedOut = true;
        reject(httpError('request_timeout', `The request took longer than ${timeoutMs} ms and was cut off.`));
      }, timeoutMs);
    });
    try {
      await Promise.race([next(), deadline]);
    } finally {
      clearTimeout(timer);
    }
  };
}
