import type { Middleware } from 'koa';

/**
 * The policy of every answer that is not a page (JSON, problems, metrics): it may load nothing and
 * be framed by nothing, so a response a browser is tricked into rendering stays inert.
 */
export const API_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";

/** Headers every response carries, whatever answers it (http-api.md §10). */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': API_CONTENT_SECURITY_POLICY,
  'X-Frame-Options': 'DENY',
};

/**
 * Sets `SECURITY_HEADERS` before anything below runs, so routes, 404/405 answers, problems and
 * timeouts all carry them. A page replaces the policy with its own (the reference page's allows its
 * one inline style sheet by hash); only the live-view page, which is made to be embedded, lifts
 * `frame-ancestors 'none'` and `DENY` (http-api.md §14).
 */
export function securityHeaders(): Middleware {
  return async (ctx, next) => {
    ctx.set(SECURITY_HEADERS);
    await next();
  };
}
