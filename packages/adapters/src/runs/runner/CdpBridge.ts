import { chmod, chown } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { type RawData, WebSocket, WebSocketServer } from 'ws';
import { MAX_CLIENT_MESSAGE_BYTES, MAX_UNREAD_BYTES } from '../../browsers/cdp/proxyCdpConnection.ts';

/**
 * Serves a WebSocket handshake for `target` in this process when `target` is one of the service's
 * own endpoints (a session's `connectUrl`): true when it took the socket, false when `target` is
 * another server's.
 */
export type OwnUpgrade = (target: URL, req: IncomingMessage, socket: Duplex, head: Buffer) => boolean;

/** Clients a run may have open to a session that is not ours (as the local provider allows per session). */
const MAX_RELAYED = 8;

/**
 * A run's only way out: a Unix socket in its folder. A WebSocket to it is served as a connection to
 * the session's CDP endpoint (`cdpUrl`): in this process, by the very code that serves `connectUrl`
 * to any client (`ownUpgrade`: the same frame limit, unread-output cap, back-pressure and command
 * policy, and no second hop through the public URL), or, for a session of another provider's
 * (Browserbase), relayed to its endpoint with the connect proxy's bounds. The run's process, which
 * has no network, reaches its session through it and nothing else.
 */
export class CdpBridge {
  private readonly server: Server;
  private readonly upgraded = new Set<Duplex>();
  private readonly relayed = new Set<WebSocket>();

  private constructor(server: Server) {
    this.server = server;
  }

  /** Serves `socketPath` (owned by `owner` when given, private to it) as `cdpUrl`. */
  static async listen(
    socketPath: string,
    cdpUrl: string,
    owner: { uid: number; gid: number } | null,
    ownUpgrade: OwnUpgrade | null,
  ): Promise<CdpBridge> {
    const server = createServer((_req, res) => res.writeHead(404).end());
    const bridge = new CdpBridge(server);
    const target = new URL(cdpUrl);
    const relay = new WebSocketServer({
      noServer: true,
      perMessageDeflate: false,
      maxPayload: MAX_CLIENT_MESSAGE_BYTES,
      clientTracking: false,
    });
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      bridge.upgraded.add(socket);
      socket.once('close', () => bridge.upgraded.delete(socket));
      if (ownUpgrade?.(target, req, socket, head)) return;
      if (bridge.relayed.size >= MAX_RELAYED) {
        socket.end('HTTP/1.1 429 Too Many Requests\r\nConnection: close\r\n\r\n');
        return;
      }
      relay.handleUpgrade(req, socket, head, (down) => bridge.relay(down, cdpUrl));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(socketPath, () => resolve());
    });
    if (owner) await chown(socketPath, owner.uid, owner.gid);
    await chmod(socketPath, 0o600);
    return bridge;
  }

  /** Stops serving and closes every connection made through it. */
  async close(): Promise<void> {
    for (const socket of this.relayed) socket.terminate();
    for (const socket of this.upgraded) socket.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /**
   * Relays `down` (the script's) to a new WebSocket to `cdpUrl`, message by message. The script's
   * frames are at most `MAX_CLIENT_MESSAGE_BYTES`; what it leaves unread past `MAX_UNREAD_BYTES`
   * disconnects it, and while the endpoint falls behind, reading from the script pauses.
   */
  private relay(down: WebSocket, cdpUrl: string): void {
    const up = new WebSocket(cdpUrl, { perMessageDeflate: false, maxPayload: 256 * 1024 * 1024 });
    this.relayed.add(down).add(up);
    const pending: [RawData, boolean][] = [];
    const toUp = (data: RawData, isBinary: boolean) => {
      if (up.readyState === WebSocket.CONNECTING) {
        pending.push([data, isBinary]);
        if (pending.length > 1000) down.close(1008, 'Too many messages before the session opened.');
      } else if (up.readyState === WebSocket.OPEN)
        send(
          up,
          data,
          isBinary,
          () => down.pause(),
          () => down.resume(),
        );
    };
    const toDown = (data: RawData, isBinary: boolean) => {
      if (down.readyState !== WebSocket.OPEN) return;
      if (down.bufferedAmount + byteLength(data) > MAX_UNREAD_BYTES)
        down.close(1008, 'The client does not read its messages.');
      else down.send(data, { binary: isBinary });
    };
    up.on('open', () => {
      for (const [data, isBinary] of pending.splice(0)) toUp(data, isBinary);
    });
    down.on('message', toUp);
    up.on('message', toDown);
    const end = (other: WebSocket, code: number) => () => {
      this.relayed.delete(down);
      this.relayed.delete(up);
      if (other.readyState === WebSocket.CONNECTING) other.terminate();
      else if (other.readyState === WebSocket.OPEN) other.close(code);
    };
    down.on('close', end(up, 1000));
    up.on('close', end(down, 1011));
    // An endpoint that refuses (or a session gone) closes the script's side; the error is the event.
    up.on('error', () => up.terminate());
    down.on('error', () => down.terminate());
  }
}

/** What the socket of `ws` may hold unsent before reading from the other side pauses. */
const HIGH_WATER_BYTES = 16 * 1024 * 1024;

/** Sends on `ws`; past the high-water mark, `pause` until the send has gone out, then `resume`. */
function send(ws: WebSocket, data: RawData, isBinary: boolean, pause: () => void, resume: () => void): void {
  if (ws.bufferedAmount + byteLength(data) <= HIGH_WATER_BYTES) {
    ws.send(data, { binary: isBinary });
    return;
  }
  pause();
  ws.send(data, { binary: isBinary }, () => resume());
}

function byteLength(data: RawData): number {
  if (Array.isArray(data)) return data.reduce((n, part) => n + part.length, 0);
  return data instanceof ArrayBuffer ? data.byteLength : data.length;
}
