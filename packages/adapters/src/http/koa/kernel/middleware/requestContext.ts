import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { Logger } from 'pino';
import type { MetricsRegistry } from '../../../../observability/MetricsRegistry.ts';
import { httpState } from '../../HttpState.ts';

/** A caller-supplied request id we are willing to echo (no spaces, no control characters, bounded). */
export const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The caller's `X-Request-Id` when sane, else a new UUID. */
export function pickRequestId(header: string | undefined): string {
  return header && SANE_REQUEST_ID.test(header) ? header : randomUUID();
}

/**
 * Outermost middleware: gives the request its id (echoed in `X-Request-Id` on every response) and a
 * bound logger, counts it in the metrics, and writes one log line per request (with the client's
 * address, `ctx.ip`). Bodies and headers are never logged.
 */
export function requestContext(log: Logger, metrics: MetricsRegistry): Middleware {
  return async (ctx, next) => {
    const startedAt = performance.now();
    const state = httpState(ctx);
    const requestId = pickRequestId(ctx.get('X-Request-Id'));
    state.requestId = requestId;
    // Bound to the request id on first use: most requests only write the completion line below.
    let child: Logger | undefined;
    Object.defineProperty(state, 'log', {
      get: () => (child ??= log.child({ requestId })),
      enumerable: true,
    });
    ctx.set('X-Request-Id', requestId);
    try {
      await next();
    } finally {
      const seconds = (performance.now() - startedAt) / 1000;
      // Unmatched paths share one label, so scanners cannot grow the series without bound.
      const labels = {
        method: ctx.method,
        route: state.routePath ?? 'unmatched',
        status: String(ctx.status),
      };
      metrics.inc('browserdeck_http_requests_total', 'HTTP requests by method, route and status.', labels);
      metrics.observe(
        'browserdeck_http_request_duration_seconds',
        'HTTP request latency by method, route and status.',
        labels,
        seconds,
      );
      // Skipped whole when the level is off (LOG_LEVEL=warn and up): the fields cost more than the call.
      if (log.isLevelEnabled('info')) {
        log.info(
          {
            requestId,
            method: ctx.method,
            path: state.logPath ?? ctx.path,
            route: state.routePath,
            status: ctx.status,
            code: state.errorCode,
            // `forwardedRequest`'s decision: forwarded only through trusted proxies.
            clientAddress: ctx.ip,
            durationMs: Math.round(seconds * 10_000) / 10,
          },
          'request completed',
        );
      }
    }
  };
}
