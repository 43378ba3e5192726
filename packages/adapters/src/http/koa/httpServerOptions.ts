import type { ServerOptions } from 'node:http';
import { CUT_OFF_FLUSH_MS, DEFAULT_REQUEST_TIMEOUT_MS } from './kernel/middleware/requestTimeout.ts';

/** The `node:http` server settings `httpServerOptions` decides. */
export type HttpServerTimeouts = Required<
  Pick<ServerOptions, 'headersTimeout' | 'requestTimeout' | 'connectionsCheckingInterval'>
>;

/**
 * Settings for the `node:http` server that serves the app (`createServer(httpServerOptions(ms),
 * app.callback())`), so that Node bounds what the app never sees: headers that take longer than
 * the request timeout, and a body still arriving after the app has answered (a 401 or 404 answered
 * before the body was read). Node answers those 408 and closes the socket. Its own limit is the
 * app's plus the time the app's 503 may take to flush, so a request the app is serving is always
 * cut off by the app, with its problem answer; and Node checks often enough (at least every second)
 * for that limit to hold, not the default 30 s later. Pass the app's `requestTimeoutMs`.
 */
export function httpServerOptions(requestTimeoutMs = DEFAULT_REQUEST_TIMEOUT_MS): HttpServerTimeouts {
  return {
    headersTimeout: requestTimeoutMs,
    requestTimeout: requestTimeoutMs + Math.min(CUT_OFF_FLUSH_MS, requestTimeoutMs),
    connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(requestTimeoutMs / 10))),
  };
}
