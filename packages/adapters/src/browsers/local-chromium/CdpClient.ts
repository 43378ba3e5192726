/** A CDP event: `method`, `params`, and the flat-mode `sessionId` of the target it came from. */
export interface CdpEvent {
  readonly method: string;
  readonly params: Record<string, unknown>;
  readonly sessionId?: string;
}

interface CdpMessage extends Partial<CdpEvent> {
  id?: number;
  result?: Record<string, unknown>;
  error?: { message: string };
}

/**
 * A minimal Chrome DevTools Protocol client over Node's global `WebSocket`, in flat session mode:
 * commands for an attached target carry its `sessionId`.
 */
export class CdpClient {
  private readonly socket: WebSocket;
  private readonly pending = new Map<
    number,
    { resolve: (r: Record<string, unknown>) => void; reject: (e: Error) => void }
  >();
  private readonly eventListeners: Array<(event: CdpEvent) => void> = [];
  private nextId = 1;
  private closed = false;

  private constructor(socket: WebSocket) {
    this.socket = socket;
    socket.addEventListener('message', (message) => {
      // A listener that throws would surface as an uncaught exception and take the service down.
      try {
        this.dispatch(String(message.data));
      } catch {
        // A malformed message or event: nothing to record.
      }
    });
    socket.addEventListener('close', () => this.onClosed());
  }

  /** Opens a connection to a DevTools WebSocket URL. */
  static connect(url: string, timeoutMs = 10_000): Promise<CdpClient> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url);
      const timer = setTimeout(() => {
        socket.close();
        reject(new Error(`CDP connection to ${url} timed out`));
      }, timeoutMs);
      socket.addEventListener('open', () => {
        clearTimeout(timer);
        resolve(new CdpClient(socket));
      });
      socket.addEventListener('error', () => {
        clearTimeout(timer);
        reject(new Error(`CDP connection to ${url} failed`));
      });
    });
  }

  /** True once the connection has closed. */
  get isClosed(): boolean {
    return this.closed;
  }

  /** Sends a command and waits for its result; rejects on a protocol error or a closed connection. */
  send(
    method: string,
    params: Record<string, unknown> = {},
    sessionId?: string,
  ): Promise<Record<string, unknown>> {
    if (this.closed) return Promise.reject(new Error(`CDP connection closed (${method})`));
    const id = this.nextId++;
    const message = sessionId ? { id, method, params, sessionId } : { id, method, params };
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      try {
        this.socket.send(JSON.stringify(message));
      } catch (error) {
        this.pending.delete(id);
        reject(error as Error);
      }
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

  /** Closes the connection. */
  close(): void {
    if (this.closed) return;
    this.socket.close();
    this.onClosed();
  }

  private dispatch(data: string): void {
    const message = JSON.parse(data) as CdpMessage;
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

  private onClosed(): void {
    if (this.closed) return;
    this.closed = true;
    for (const waiter of this.pending.values()) waiter.reject(new Error('CDP connection closed'));
    this.pending.clear();
  }
}
