import koaCors from '@koa/cors';
import type { Middleware } from 'koa';

const ALLOW_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE';
const ALLOW_HEADERS = 'Authorization, Content-Type, Idempotency-Key, X-Request-Id, X-BB-API-Key';
const EXPOSE_HEADERS = 'X-Request-Id, Retry-After, X-Sync-Error, Idempotent-Replayed, Allow';

/**
 * CORS for the configured origins only (`*` allows any), by `@koa/cors`. With no origins configured it
 * adds nothing: browsers then refuse cross-origin calls (http-api.md §10: closed unless configured). Bearer
 * tokens travel in a header, so credentials (cookies) are never allowed.
 */
export function cors(origins: readonly string[]): Middleware {
  if (origins.length === 0) return (_ctx, next) => next();
  const allowAny = origins.includes('*');
  const allowed = new Set(origins);
  return koaCors({
    // An empty answer leaves the request without CORS headers.
    origin: (ctx) => {
      const origin = ctx.get('Origin');
      if (!origin) return '';
      return allowAny ? '*' : allowed.has(origin) ? origin : '';
    },
    allowMethods: ALLOW_METHODS,
    allowHeaders: ALLOW_HEADERS,
    exposeHeaders: EXPOSE_HEADERS,
    maxAge: 600,
    credentials: false,
    // The headers are set on ctx before the error handler (outside) writes the problem, which keeps them.
    keepHeadersOnError: false,
  });
}
