import type { Context } from 'koa';
import type { Logger } from 'pino';
import type { ErrorWriter } from './kernel/errors/ErrorWriter.ts';
import type { ProblemCode } from './kernel/errors/problemCodes.ts';
import type { PublicUrls } from './kernel/proxy/PublicUrls.ts';
import type { AnyRoute } from './kernel/routing/RouteDefinition.ts';

/** What the HTTP middleware keeps on `ctx.state` for one request. */
export interface HttpState {
  /** The caller's sane `X-Request-Id`, else a generated UUID. */
  requestId: string;
  /** The request-scoped logger (bound to the request id, redacting secrets). */
  log: Logger;
  /** The matched route template, for logs: `/v1/projects/:project_id`. */
  routePath?: string;
  /** The route serving the request, once one is chosen: whose documented error codes it may answer. */
  route?: AnyRoute | undefined;
  /** The path the request log shows instead of `ctx.path` (a passthrough route's, its credentials hidden). */
  logPath?: string;
  /** The error code answered, for the request log. */
  errorCode?: ProblemCode;
  /**
   * How errors are answered: the matched route's (or its path dialect's) writer; RFC 9457 problems
   * when unset.
   */
  writeError?: ErrorWriter | undefined;
  /** Set when the request timed out: the late handler must not write the response. */
  timedOut?: boolean;
  /** The matched route's `extraTimeMs`: how much later than usual `requestTimeout` cuts it off. */
  extraTimeMs?: number | undefined;
  /** Where this client reaches the API (`forwardedRequest`: forwarded origin only from a trusted proxy). */
  publicUrls?: PublicUrls | undefined;
}

/** The typed view of `ctx.state`. */
export function httpState(ctx: Context): HttpState {
  return ctx.state as HttpState;
}
