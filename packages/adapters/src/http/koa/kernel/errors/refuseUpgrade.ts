import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { pickRequestId } from '../middleware/requestContext.ts';
import { SECURITY_HEADERS } from '../middleware/securityHeaders.ts';
import type { ProblemCode } from './problemCodes.ts';
import { httpError } from './toDomainError.ts';
import { problemBody } from './writeProblem.ts';

/**
 * Answers an HTTP upgrade (a WebSocket handshake) that cannot be served the way every API error is
 * answered (http-api.md §2): the problem body of `code`, `application/problem+json`, and the caller's sane
 * `X-Request-Id` echoed (else a new one); then closes the connection. Koa never sees upgrades, so
 * this writes the response on the socket itself. `mountPrefix` is where the API is served (e.g.
 * `/browserdeck`), for the problem's `type` link.
 */
export function refuseUpgrade(
  req: IncomingMessage,
  client: Duplex,
  code: ProblemCode,
  detail: string,
  mountPrefix = '',
): void {
  const header = req.headers['x-request-id'];
  const requestId = pickRequestId(typeof header === 'string' ? header : undefined);
  const problem = problemBody(httpError(code, detail), requestId, mountPrefix);
  const body = JSON.stringify(problem);
  const security = Object.entries(SECURITY_HEADERS).map(([name, value]) => `${name}: ${value}\r\n`);
  client.on('error', () => {});
  client.end(
    `HTTP/1.1 ${problem.status} ${problem.title}\r\nConnection: close\r\n` +
      'Content-Type: application/problem+json\r\nCache-Control: no-store\r\n' +
      security.join('') +
      `X-Request-Id: ${requestId}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
  client.once('finish', () => client.destroy());
}
