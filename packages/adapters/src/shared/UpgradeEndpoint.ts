import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ErrorCode } from '@browserdeck/domain';

/** An HTTP upgrade (a WebSocket handshake) matched to an endpoint: the request, its path parameters and query. */
export interface UpgradeRequest {
  req: IncomingMessage;
  socket: Duplex;
  head: Buffer;
  /** The endpoint's path parameters, decoded. */
  params: Readonly<Record<string, string>>;
  query: URLSearchParams;
  /** The path prefix the API is served under (`''` at the root), for links and problem types. */
  mountPrefix: string;
}

/** Why an upgrade is refused: the host answers it as an API error (`refuseUpgrade`). */
export interface UpgradeRefusal {
  code: Extract<ErrorCode, 'not_found' | 'unauthorized' | 'session_ended' | 'rate_limited'>;
  detail: string;
}

/** True when the endpoint took the socket (it answers it, also asynchronously); else why not. */
export type UpgradeOutcome = true | UpgradeRefusal;

/**
 * A WebSocket endpoint, as an adapter family declares it without knowing the HTTP adapter: the HTTP
 * adapter puts it in its one route table (an upgrade route) and matches it with the same path rules.
 */
export interface UpgradeEndpoint {
  /** OpenAPI-style path template, e.g. `/v1/local/sessions/{provider_session_id}/connect`. */
  path: string;
  operationId: string;
  summary: string;
  serve(request: UpgradeRequest): UpgradeOutcome;
}
