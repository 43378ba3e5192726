import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import { httpState } from '../HttpState.ts';

/** A caller-supplied request id we are willing to echo (no spaces, no control characters, bounded). */
export const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The caller's `X-Request-Id` when sane, else a new UUID. */
export function pickRequestId(header: string | undefined): string {
  return header && SANE_REQUEST_ID.test(header) ? header : randomUUID();
}

/**
 * Outermost middleware: gives the request its id (echoed in `X-Request-Id` on every response) and a
 * bound logger, and writes one log line per request. Bodies and headers are never logged.
 */
export function requestContext(log: Logger): Middleware {
  return async (ctx, next) => {
    const startedAt = performance.now();
    const state = httpState(ctx);
    state.requestId = pickRequestId(ctx.get('X-Request-Id'));
    state.log = log.child({ requestId: state.requestId });
    ctx.set('X-Request-Id', state.requestId);
    try {
      await next();
    } finally {
      state.log.info(
        {
          method: ctx.method,
          path: ctx.path,
          route: state.routePath,
          status: ctx.status,
          code: state.errorCode,
          durationMs: Math.round((performance.now() - startedAt) * 10) / 10,
        },
        'request completed',
      );
    }
  };
}
