import type { IncomingMessage } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
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
