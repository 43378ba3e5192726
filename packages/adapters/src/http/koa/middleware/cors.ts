import type { Middleware } from 'koa';

const ALLOW_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE';
const ALLOW_HEADERS = 'Authorization, Content-Type, Idempotency-Key, X-Request-Id';
const EXPOSE_HEADERS = 'X-Request-Id, Retry-After, X-Sync-Error, Idempotent-Replayed, Allow';

/**
 * CORS for the configured origins only (`*` allows any). With no origins configured it adds nothing:
 * browsers then refuse cross-origin calls (SPEC §10: closed unless configured). Bearer tokens travel
 * in a header, so credentials (cookies) are never allowed.
 */
export function cors(origins: readonly string[]): Middleware {
  const allowAny = origins.includes('*');
  const allowed = new Set(origins);
  return async (ctx, next) => {
    if (origins.length === 0) return next();
    ctx.vary('Origin');
    const origin = ctx.get('Origin');
    if (!origin || !(allowAny || allowed.has(origin))) return next();
    ctx.set('Access-Control-Allow-Origin', allowAny ? '*' : origin);
    ctx.set('Access-Control-Expose-Headers', EXPOSE_HEADERS);
    if (ctx.method === 'OPTIONS' && ctx.get('Access-Control-Request-Method')) {
      ctx.set('Access-Control-Allow-Methods', ALLOW_METHODS);
      ctx.set('Access-Control-Allow-Headers', ALLOW_HEADERS);
      ctx.set('Access-Control-Max-Age', '600');
      ctx.status = 204;
      return;
    }
    await next();
  };
}
