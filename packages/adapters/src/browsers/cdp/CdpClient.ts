import type { CdpBrowserMessage, CdpCommand, CdpEvent } from './cdpMessages.ts';

/** What a `CdpClient` needs of its connection. */
export interface CdpClientConnection {
  /** Sends a command; its answer comes back through the connection's listener. */
  send(command: CdpCommand): unknown;
  /** Ends the connection: nothing more is delivered. */
  close(): void;
  /** True once closed, by either side. */
  readonly isClosed: boolean;
}

type Waiter = { resolve: (result: Record<string, unknown>) => void; reject: (error: Error) => void };

/**
 * A Chrome DevTools Protocol client over one connection (flat session mode: commands for an
 * attached target carry its `sessionId`): commands answered as promises, events to its listeners,
 * everything outstanding rejected once the connection closes (by either side; the close listeners
 * run once). Open the connection with `receive` and `receiveClose` as its listeners, then `attach` it.
 */
export class CdpClient {
  private connection: CdpClientConnection | null = null;
  private readonly pending = new Map<number, Waiter>();
  private readonly eventListeners: Array<(event: CdpEvent) => void> = [];
  private readonly closeListeners: Array<() => void> = [];
  private nextId = 1;
  private closed = false;

  /** Binds the client to its connection. */
  attach(connection: CdpClientConnection): void {
    this.connection = connection;
  }

  /** True once the connection has closed. */
  get isClosed(): boolean {
    return this.closed || (this.connection?.isClosed ?? false);
  }

  /** Commands sent and not answered yet. */
  get outstanding(): number {
    return this.pending.size;
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
      connection.send(sessionId === undefined ? { id, method, params } : { id, method, params, sessionId });
    });
  }

  /** Sends a command whose answer nobody waits for; a failure is ignored (the target may be gone). */
  fire(method: string, params: Record<string, unknown> = {}, sessionId?: string): void {
    this.send(method, params, sessionId).catch(() => {});
  }

  /** Calls `listener` for every event. */
  onEvent(listener: (event: CdpEvent) => void): void {
    this.eventListeners.push(listener);
  }

  /** Calls `listener` once the connection closes, by either side. */
  onClose(listener: () => void): void {
    this.closeListeners.push(listener);
  }

  /** Delivers a message from the browser (the connection's message listener). */
  readonly receive = (message: CdpBrowserMessage): void => {
    // The browser delivers on the provider's own pipe: a listener's failure must not travel there
    // (it would surface as an uncaught exception and take the service down).
    try {
      this.dispatch(message);
    } catch {
      // A malformed message or event: nothing to record.
    }
  };

  /** Rejects what is outstanding and tells the close listeners, once (the connection's close listener). */
  readonly receiveClose = (): void => {
    if (this.closed) return;
    this.closed = true;
    for (const waiter of this.pending.values()) waiter.reject(new Error('CDP connection closed'));
    this.pending.clear();
    for (const listener of this.closeListeners) listener();
  };

  /** Closes the connection. */
  close(): void {
    this.connection?.close();
    this.receiveClose();
  }

  private dispatch(message: CdpBrowserMessage): void {
    if (typeof message.id === 'number') {
      const waiter = this.pending.get(message.id);
      if (!waiter) return;
      this.pending.delete(message.id);
      if (message.error) waiter.reject(new Error(message.error.message));
      else waiter.resolve(message.result ?? {});
      return;
    }
    if (typeof message.method !== 'string') return;
    const event: CdpEvent =
      message.sessionId === undefined
        ? { method: message.method, params: message.params ?? {} }
        : { method: message.method, params: message.params ?? {}, sessionId: message.sessionId };
    for (const listener of this.eventListeners) listener(event);
  }
}
