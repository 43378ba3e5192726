import type { CdpConnection, CdpIncoming } from './CdpRouter.ts';

/** A CDP event: `method`, `params`, and the flat-mode `sessionId` of the target it came from. */
export interface CdpEvent {
  readonly method: string;
  readonly params: Record<string, unknown>;
  readonly sessionId?: string;
}

/**
 * The provider's own Chrome DevTools Protocol client, over a `CdpRouter` connection (flat session
 * mode: commands for an attached target carry its `sessionId`).
 */
export class CdpClient {
  private connection: CdpConnection | null = null;
  private readonly pending = new Map<
    number,
    { resolve: (r: Record<string, unknown>) => void; reject: (e: Error) => void }
  >();
  private readonly eventListeners: Array<(event: CdpEvent) => void> = [];
  private nextId = 1;
  private closed = false;

  /** Binds the client to a connection; pass `client.receive` as the connection's listener. */
  attach(connection: CdpConnection): void {
    this.connection = connection;
  }

  /** True once the connection has closed. */
  get isClosed(): boolean {
    return this.closed || (this.connection?.isClosed ?? false);
  }

  /** Sends a command and waits for its result; rejects on a protocol error or a closed connection. */
  send(
    method: string,
    params: Record<string, unknown> = {},
    sessionId?: string,
  ): Promise<Record<string, unknown>> {
    const connection = this.connection;
    if (!connection || this.isClosed) return Promise.reject(new Error(`CDP connection closed (${method})`));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      connection.send(sessionId ? { id, method, params, sessionId } : { id, method, params });
    });
  }

  /** Sends a command whose answer nobody needs; a failure is ignored (the target may be gone). */
  fire(method: string, params: Record<string, unknown> = {}, sessionId?: string): void {
    this.send(method, params, sessionId).catch(() => {});
  }

  /** Calls `listener` for every event. */
  onEvent(listener: (event: CdpEvent) => void): void {
    this.eventListeners.push(listener);
  }

  /** Delivers a message from the browser (the connection's listener). */
  readonly receive = (message: CdpIncoming): void => {
    // A listener that throws would surface as an uncaught exception and take the service down.
    try {
      this.dispatch(message);
    } catch {
      // A malformed message or event: nothing to record.
    }
  };

  /** Rejects what is outstanding; called when the connection closes. */
  readonly onClosed = (): void => {
    if (this.closed) return;
    this.closed = true;
    for (const waiter of this.pending.values()) waiter.reject(new Error('CDP connection closed'));
    this.pending.clear();
  };

  /** Closes the connection. */
  close(): void {
    this.connection?.close();
    this.onClosed();
  }

  private dispatch(message: CdpIncoming): void {
    if (message.id !== undefined) {
      const waiter = this.pending.get(message.id);
      if (!waiter) return;
      this.pending.delete(message.id);
      if (message.error) waiter.reject(new Error(message.error.message));
      else waiter.resolve(message.result ?? {});
      return;
    }
    if (!message.method) return;
    const event: CdpEvent = message.sessionId
      ? { method: message.method, params: message.params ?? {}, sessionId: message.sessionId }
      : { method: message.method, params: message.params ?? {} };
    for (const listener of this.eventListeners) listener(event);
  }
}
