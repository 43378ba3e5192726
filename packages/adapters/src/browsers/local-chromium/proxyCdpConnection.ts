import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { type WebSocket, WebSocketServer } from 'ws';
import type { CdpBrowserMessage } from '../cdp/cdpMessages.ts';
import type { CdpConnection, CdpRouter } from './cdp/CdpRouter.ts';
import { checkCdpCommand, type SessionFolders } from './cdpCommandPolicy.ts';

/** The largest message a client may send (a larger frame closes the connection with 1009 before it is read). */
export const MAX_CLIENT_MESSAGE_BYTES = 32 * 1024 * 1024;

/**
 * What may wait for a client that does not read (browser → client): past it the client is
 * disconnected (1008) rather than buffered without end.
 */
const MAX_UNREAD_BYTES = 64 * 1024 * 1024;
/** Messages a client may send before its browser session is open (it opens in milliseconds). */
const MAX_EARLY_MESSAGES = 1000;

/** One WebSocket server for every connect endpoint: handshakes only (`noServer`), no compression. */
const sockets = new WebSocketServer({
  noServer: true,
  maxPayload: MAX_CLIENT_MESSAGE_BYTES,
  perMessageDeflate: false,
  clientTracking: false,
});

/**
 * Completes a client's WebSocket handshake (`ws`) and connects it to the browser through `router`
 * with a browser session of its own. Every client message passes `checkCdpCommand` first: a
 * refused one is answered with a CDP error naming the rule and never reaches the browser. When the
 * browser falls behind, reading from the client pauses until it catches up; a client that does not
 * read what the browser sends is disconnected once 64 MiB wait for it. Returns nothing; the
 * raw `socket` is what the session tracks (destroying it ends the connection).
 */
export function proxyCdpConnection(
  req: IncomingMessage,
  socket: Duplex,
  head: Buffer,
  target: { router: CdpRouter; folders: SessionFolders },
): void {
  sockets.handleUpgrade(req, socket, head, (ws) => {
    const queued: string[] = [];
    let connection: CdpConnection | null = null;
    let closed = false;
    const reply = (message: CdpBrowserMessage): void => {
      if (ws.readyState !== ws.OPEN) return;
      if (ws.bufferedAmount > MAX_UNREAD_BYTES) ws.close(1008, 'The client does not read its messages.');
      else ws.send(JSON.stringify(message));
    };
    const forward = (raw: string): void => {
      const decision = checkCdpCommand(raw, target.folders);
      if (!decision.allowed) {
        reply({
          id: decision.id ?? undefined,
          error: { code: decision.code, message: decision.message },
          ...(decision.sessionId === undefined ? {} : { sessionId: decision.sessionId }),
        });
        return;
      }
      if (connection && !connection.send(decision.command)) pauseUntilDrained(ws, connection);
    };
    ws.on('message', (data, isBinary) => {
      const raw = isBinary ? Buffer.concat(toBuffers(data)).toString('utf8') : String(data);
      if (connection) forward(raw);
      else if (queued.push(raw) > MAX_EARLY_MESSAGES)
        ws.close(1008, 'Too many messages before the session opened.');
    });
    ws.on('error', () => ws.terminate());
    ws.on('close', () => {
      closed = true;
      connection?.close();
    });
    target.router
      .openClient(reply, () => ws.close(1001, 'The browser session has ended.'))
      .then((opened) => {
        if (closed) {
          opened.close();
          return;
        }
        connection = opened;
        for (const raw of queued.splice(0)) forward(raw);
      })
      .catch(() => ws.close(1011, 'The browser is not available.'));
  });
}

function pauseUntilDrained(ws: WebSocket, connection: CdpConnection): void {
  if (ws.isPaused) return;
  ws.pause();
  void connection.drained().then(() => ws.resume());
}

function toBuffers(data: Buffer | ArrayBuffer | Buffer[]): Buffer[] {
  if (Array.isArray(data)) return data;
  return [Buffer.isBuffer(data) ? data : Buffer.from(data)];
}
