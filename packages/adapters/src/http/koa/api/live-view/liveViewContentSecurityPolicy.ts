/** An origin a CSP source list can name as it is: `scheme://host[:port]`, nothing that ends a directive. */
const PLAIN_ORIGIN = /^https?:\/\/[A-Za-z0-9.-]+(?::\d{1,5})?$/;

/**
 * The live-view page's policy: its own scripts, styles and WebSocket only, frames as `blob:`/`data:`
 * images, and framing by this origin and the configured CORS origins (the console, and users' own
 * apps, embed it); `*` among them lets any site frame it. Anything else in the list is left out.
 */
export function liveViewContentSecurityPolicy(corsOrigins: readonly string[]): string {
  const ancestors = corsOrigins.includes('*')
    ? ['*']
    : [...new Set(corsOrigins.filter((origin) => PLAIN_ORIGIN.test(origin)))];
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' blob: data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${["'self'", ...ancestors].join(' ')}`,
  ].join('; ');
}
