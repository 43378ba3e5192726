import type { IncomingMessage } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { pickRequestId } from '../../http/koa/middleware/requestContext.ts';
import { applyCdpCommandPolicy } from './cdpCommandPolicy.ts';
import { WebSocketMessageRewriter } from './WebSocketMessageRewriter.ts';

/**
 * Headers not passed to the browser: it checks `Host` and refuses unknown `Origin`s; extensions
 * (compression) would make the client's messages opaque to the command policy.
 */
const DROPPED_HEADERS = new Set(['host', 'origin', 'sec-websocket-extensions']);

/**
 * Proxies an HTTP upgrade (a WebSocket handshake) to a browser's DevTools endpoint on 127.0.0.1:
 * opens a TCP connection, replays the handshake with the path rewritten to `path`, then pipes both
 * sockets. The browser's answers pass as opaque bytes; the client's messages go through
 * `applyCdpCommandPolicy` (see there). Returns the upstream socket; destroying either side
 * destroys the other.
 */
export function proxyWebSocketUpgrade(
  req: IncomingMessage,
  client: Duplex,
  head: Buffer,
  target: { port: number; path: string; downloadsDir: string },
): Socket {
  const upstream = connect({ host: '127.0.0.1', port: target.port, noDelay: true });
  const lines = [`GET ${target.path} HTTP/1.1`, `Host: 127.0.0.1:${target.port}`];
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]!;
    if (!DROPPED_HEADERS.has(name.toLowerCase())) lines.push(`${name}: ${req.rawHeaders[i + 1]}`);
  }
  upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
  const commands = new WebSocketMessageRewriter((message) =>
    applyCdpCommandPolicy(message, target.downloadsDir),
  );
  if (head.length > 0) commands.write(head);
  if ('setNoDelay' in client && typeof client.setNoDelay === 'function') client.setNoDelay(true);
  const destroyBoth = (): void => {
    upstream.destroy();
    client.destroy();
  };
  upstream.on('error', destroyBoth);
  client.on('error', destroyBoth);
  commands.on('error', destroyBoth);
  upstream.on('close', destroyBoth);
  client.on('close', destroyBoth);
  upstream.pipe(client);
  client.pipe(commands).pipe(upstream);
  return upstream;
}

/** How a refused connect is answered: status, title and problem code. */
const REFUSALS = {
  401: { title: 'Unauthorized', code: 'unauthorized' },
  404: { title: 'Not Found', code: 'not_found' },
  410: { title: 'Gone', code: 'session_ended' },
} as const;

/**
 * Answers an upgrade request that cannot be served the way every API error is answered (SPEC §2):
 * an `application/problem+json` body and the caller's sane `X-Request-Id` echoed (else a new one);
 * then closes the connection.
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
