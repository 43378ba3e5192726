/** The origin of Browserbase's live-view pages (`debuggerFullscreenUrl` of its debug endpoint). */
export const BROWSERBASE_LIVE_VIEW_ORIGIN = 'https://www.browserbase.com';

/** A source expression a policy may list: `'self'` or a plain `scheme://host[:port]` origin. */
const FRAME_SOURCE = /^(?:'self'|https?:\/\/[A-Za-z0-9.-]+(?::\d{1,5})?)$/;

/**
 * The console page's Content-Security-Policy: scripts, styles, fonts and API calls from its own
 * origin only (no inline script or style, no `eval`), images also as `data:`/`blob:`, media only as
 * `blob:` (a recording's video, fetched with the token), frames from its
 * own origin plus `frameSources` (the live view), and nothing may frame the console itself.
 * A frame source that is not a plain origin is left out rather than trusted.
 */
export function consoleContentSecurityPolicy(frameSources: readonly string[] = []): string {
  const frames = ["'self'", ...frameSources.filter((source) => FRAME_SOURCE.test(source))];
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data: blob:",
    'media-src blob:',
    "font-src 'self'",
    "connect-src 'self'",
    `frame-src ${[...new Set(frames)].join(' ')}`,
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}
