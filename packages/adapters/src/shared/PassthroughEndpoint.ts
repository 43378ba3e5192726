import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ErrorCode } from '@browserdeck/domain';

/**
 * A plain HTTP request matched to a passthrough endpoint: the raw request (its body not read) and
 * response, the endpoint's path parameters and what follows its path.
 */
export interface PassthroughRequest {
  req: IncomingMessage;
  res: ServerResponse;
  /** The endpoint's path parameters, decoded. */
  params: Readonly<Record<string, string>>;
  /**
   * The rest of the path after the endpoint's own, as sent (still percent-encoded): `''`, or `/` and
   * segments (`/session/abc/url`). The query is not part of it.
   */
  subpath: string;
  /** The path prefix the API is served under (`''` at the root). */
  mountPrefix: string;
}

/** Why a passthrough request is refused: the host answers it as an API error, in the route's dialect. */
export interface PassthroughRefusal {
  code: Extract<ErrorCode, 'not_found' | 'unauthorized' | 'session_ended' | 'rate_limited'>;
  detail: string;
}

/**
 * True when the endpoint took the request (it answers it, also asynchronously, and always ends the
 * response); else why not, with the request untouched (its body unread), so the host may still
 * answer it or hand it on (to the instance holding the session, for `not_found`).
 */
export type PassthroughOutcome = true | PassthroughRefusal;

/**
 * An HTTP endpoint an adapter family serves itself, below one path, as raw HTTP (any method, no
 * body parser, its own answers), declared without knowing the HTTP adapter: the HTTP adapter puts it
 * in its route table (one documented operation) and hands it every request whose path is `path` or
 * below it. E.g. a session's WebDriver endpoint, `seleniumRemoteUrl`.
 */
export interface PassthroughEndpoint {
  /** OpenAPI-style path template of the endpoint's base, e.g. `/v1/local/sessions/{provider_session_id}/webdriver/{signing_key}`. */
  path: string;
  operationId: string;
  summary: string;
  /** What the endpoint serves below its path, for the API reference. */
  description: string;
  /** Path parameters that are credentials (a signing key): request logs show `{name}` in their place. */
  secretParams?: readonly string[];
  serve(request: PassthroughRequest): PassthroughOutcome | Promise<PassthroughOutcome>;
}
