import type { Duplex } from 'node:stream';
import type { GoingAway } from './proxyCdpConnection.ts';

/**
 * How long a session without `keepAlive` waits, once its last client disconnected, before it ends:
 * a client that reconnects at once (a retry, a tool that reconnects to switch targets) keeps it.
 */
export const DISCONNECT_GRACE_MS = 2_000;

/**
 * The clients connected to one session: proxied `connectUrl` sockets (each with how to tell its
 * client it is going) and in-process clients (the live view's). Without `keepAlive`, once the last
 * socket has been gone for `DISCONNECT_GRACE_MS`, `onLastGone` is called (Browserbase's behaviour);
 * a session no client ever connected to waits for its release or its timeout. In-process clients
 * neither start nor cancel that grace. After `closeAll`, whatever arrives is told to go at once.
 */
export class SessionClients {
  private readonly sockets = new Map<Duplex, GoingAway>();
  private readonly inProcess = new Set<{ close(): void }>();
  private readonly keepAlive: boolean;
  private readonly onLastGone: () => void;
  private graceTimer: NodeJS.Timeout | null = null;
  private closedWith: { code: number; reason: string } | null = null;

  constructor(options: { keepAlive: boolean; onLastGone: () => void }) {
    this.keepAlive = options.keepAlive;
    this.onLastGone = options.onLastGone;
  }

  /** Connected clients (one socket each). */
  get openSockets(): number {
    return this.sockets.size;
  }

  /**
   * Tracks a client's proxied connection so that `closeAll` tells the client it is going and cuts
   * it; without `keepAlive`, the last one to close starts the disconnect grace.
   */
  track(socket: Duplex, goingAway: GoingAway): void {
    if (this.closedWith) {
      goingAway(this.closedWith.code, this.closedWith.reason);
      return;
    }
    this.sockets.set(socket, goingAway);
    this.cancelGrace();
    socket.once('close', () => {
      this.sockets.delete(socket);
      if (!this.keepAlive && this.sockets.size === 0 && !this.closedWith) this.startGrace();
    });
  }

  /**
   * Holds an in-process client so that `closeAll` closes it. It is not a connected client: it
   * neither starts nor cancels the disconnect grace. Returns the function that lets go of it.
   */
  holdInProcessClient(client: { close(): void }): () => void {
    if (this.closedWith) {
      client.close();
      return () => {};
    }
    this.inProcess.add(client);
    return () => this.inProcess.delete(client);
  }

  /** Tells every client it is going (a close frame with `code` and `reason`), once; later ones too. */
  closeAll(code: number, reason: string): void {
    if (this.closedWith) return;
    this.closedWith = { code, reason };
    this.cancelGrace();
    for (const goingAway of this.sockets.values()) goingAway(code, reason);
    this.sockets.clear();
    for (const client of [...this.inProcess]) client.close();
    this.inProcess.clear();
  }

  private startGrace(): void {
    this.cancelGrace();
    this.graceTimer = setTimeout(() => {
      this.graceTimer = null;
      if (this.sockets.size === 0 && !this.closedWith) this.onLastGone();
    }, DISCONNECT_GRACE_MS);
    this.graceTimer.unref();
  }

  private cancelGrace(): void {
    if (this.graceTimer) clearTimeout(this.graceTimer);
    this.graceTimer = null;
  }
}
