import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { type WebSocket, WebSocketServer } from 'ws';
import type { CdpConnection, CdpUpstream } from './CdpConnection.ts';
import {
  type AnswerRewrite,
  checkCdpCommand,
  refusalAnswer,
  type SessionFolders,
} from './cdpCommandPolicy.ts';
import type { CdpBrowserMessage } from './cdpMessages.ts';
import { hideExtensionPaths } from './hideExtensionPaths.ts';

/** The largest message a client may send (a larger frame closes the connection with 1009 before it is read). */
export const MAX_CLIENT_MESSAGE_BYTES = 32 * 1024 * 1024;

/**
 * What may wait for a client that does not read (browser → client), the message about to be queued
 * included: a message that would take it past this disconnects the client (1008) instead of being
 * buffered, so no connection pins more than this.
 */
export const MAX_UNREAD_BYTES = 64 * 1024 * 1024;
/** Messages a client may send before its browser session is open (it opens in milliseconds). */
const MAX_EARLY_MESSAGES = 1000;

/** One WebSocket server for every connect endpoint: handshakes only (`noServer`), no compression. */
const sockets = new WebSocketServer({
  noServer: true,
  maxPayload: MAX_CLIENT_MESSAGE_BYTES,
  perMessageDeflate: false,
  clientTracking: false,
});

/** Tells a proxied client that the server ends its connection (a close frame with `code`). */
export type GoingAway = (code: number, reason: string) => void;

/** How long a client told to go has to answer the close frame before its socket is cut. */
const CLOSE_HANDSHAKE_MS = 1_000;

/**
 * Completes a client's WebSocket handshake (`ws`) and connects it to the browser through `upstream`
 * (a connection of its own: a browser session nobody else's commands reach; the local provider's pipe
 * router, a WebSocket to a Grid's `se:cdp`). Every client message passes `checkCdpCommand` first: a
 * refused one is answered with a CDP error naming the rule and never reaches the browser. When the
 * browser falls behind, reading from the client pauses until it catches up; a client that does not
 * read what the browser sends is disconnected before 64 MiB would wait for it. Returns how to tell
 * the client it is going (a close frame, then the raw `socket` destroyed if the client does not
 * answer within a second); the raw `socket` is what the session tracks.
 */
export function proxyCdpConnection(
  req: IncomingMessage,
  socket: Duplex,
  head: Buffer,
  target: { upstream: CdpUpstream; folders: SessionFolders | null },
): GoingAway {
  let opened: WebSocket | null = null;
  sockets.handleUpgrade(req, socket, head, (ws) => {
    opened = ws;
    const queued: string[] = [];
    let connection: CdpConnection | null = null;
    let closed = false;
    // Answers the policy changes (`PolicyDecision.answer`), by the client's session and id.
    const rewrites = new Map<string, AnswerRewrite>();
    const reply = (message: CdpBrowserMessage): void => {
      if (ws.readyState !== ws.OPEN) return;
      const key = message.id === undefined ? null : `${message.sessionId ?? ''} ${message.id}`;
      const rewrite = key === null ? undefined : rewrites.get(key);
      if (rewrite) rewrites.delete(key!);
      const text = JSON.stringify(rewrite === 'hideExtensionPaths' ? hideExtensionPaths(message) : message);
      if (ws.bufferedAmount + Buffer.byteLength(text) > MAX_UNREAD_BYTES)
        ws.close(1008, 'The client does not read its messages.');
      else ws.send(text);
    };
    const forward = (raw: string): void => {
      const decision = checkCdpCommand(raw, target.folders);
      if (!decision.allowed) {
        reply(refusalAnswer(decision));
        return;
      }
      const { command } = decision;
      if (decision.answer) rewrites.set(`${command.sessionId ?? ''} ${command.id}`, decision.answer);
      if (connection && !connection.send(command)) pauseUntilDrained(ws, connection);
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
    target.upstream
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
  return (code, reason) => {
    const ws = opened as WebSocket | null;
    if (ws && ws.readyState === ws.OPEN) {
      ws.close(code, reason);
      setTimeout(() => socket.destroy(), CLOSE_HANDSHAKE_MS).unref();
    } else socket.destroy();
  };
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
