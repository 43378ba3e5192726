import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { pickRequestId } from '../middleware/requestContext.ts';

/** How a refused upgrade is answered: status, title and problem code. */
const REFUSALS = {
  401: { title: 'Unauthorized', code: 'unauthorized' },
  404: { title: 'Not Found', code: 'not_found' },
  410: { title: 'Gone', code: 'session_ended' },
} as const;

/**
 * Answers an HTTP upgrade (a WebSocket handshake) that cannot be served the way every API error is
 * answered (SPEC §2): an `application/problem+json` body and the caller's sane `X-Request-Id`
 * echoed (else a new one); then closes the connection. Koa never sees upgrades, so this writes the
 * response on the socket itself.
 */
export function refuseUpgrade(
  req: IncomingMessage,
  client: Duplex,
  status: keyof typeof REFUSALS,
  detail: string,
): void {
  const { title, code } = REFUSALS[status];
  const header = req.headers['x-request-id'];
  const requestId = pickRequestId(typeof header === 'string' ? header : undefined);
  const body = JSON.stringify({ type: `/docs#error-${code}`, title, status, detail, code, requestId });
  client.on('error', () => {});
  client.end(
    `HTTP/1.1 ${status} ${title}\r\nConnection: close\r\n` +
      'Content-Type: application/problem+json\r\nCache-Control: no-store\r\n' +
      `X-Request-Id: ${requestId}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
  client.once('finish', () => client.destroy());
}
