import { chmod, chown } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { type RawData, WebSocket, WebSocketServer } from 'ws';

/** Largest CDP message relayed (a full-page screenshot fits). */
const MAX_PAYLOAD_BYTES = 256 * 1024 * 1024;

/**
 * A run's only way out: a Unix socket in its folder where each WebSocket accepted is relayed,
 * message by message, to a new WebSocket to the session's CDP endpoint (`cdpUrl`, as any client
 * connects: wss, its host and token included). The run's process, which has no network, reaches its
 * session through it and nothing else.
 */
export class CdpBridge {
  private readonly server: Server;
  private readonly sockets = new Set<WebSocket>();

  private constructor(server: Server) {
    this.server = server;
  }

  /** Serves `socketPath` (owned by `owner` when given, private to it) relaying to `cdpUrl`. */
  static async listen(
    socketPath: string,
    cdpUrl: string,
    owner: { uid: number; gid: number } | null,
  ): Promise<CdpBridge> {
    const server = createServer((_req, res) => res.writeHead(404).end());
    const bridge = new CdpBridge(server);
    const wss = new WebSocketServer({ server, perMessageDeflate: false, maxPayload: MAX_PAYLOAD_BYTES });
    wss.on('connection', (down) => bridge.relay(down, cdpUrl));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(socketPath, () => resolve());
    });
    if (owner) await chown(socketPath, owner.uid, owner.gid);
    await chmod(socketPath, 0o600);
    return bridge;
  }

  /** Stops serving and closes every relayed connection. */
  async close(): Promise<void> {
    for (const socket of this.sockets) socket.terminate();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private relay(down: WebSocket, cdpUrl: string): void {
    const up = new WebSocket(cdpUrl, { perMessageDeflate: false, maxPayload: MAX_PAYLOAD_BYTES });
    this.sockets.add(down).add(up);
    const pending: [RawData, boolean][] = [];
    const forward = (to: WebSocket) => (data: RawData, isBinary: boolean) => {
      if (to.readyState === WebSocket.OPEN) to.send(data, { binary: isBinary });
      else if (to === up && to.readyState === WebSocket.CONNECTING) pending.push([data, isBinary]);
    };
    up.on('open', () => {
      for (const [data, isBinary] of pending.splice(0)) up.send(data, { binary: isBinary });
    });
    down.on('message', forward(up));
    up.on('message', forward(down));
    const end = (other: WebSocket, code: number) => () => {
      this.sockets.delete(down);
      this.sockets.delete(up);
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
