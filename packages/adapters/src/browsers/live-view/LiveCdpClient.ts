import type { CdpBrowserMessage, CdpCapability, CdpCapabilityConnection } from '../ProviderCapabilities.ts';

/** A CDP event: `method`, `params`, and the flat-mode `sessionId` of the target it came from. */
export interface LiveCdpEvent {
  readonly method: string;
  readonly params: Record<string, unknown>;
  readonly sessionId?: string;
}

type Waiter = { resolve: (result: Record<string, unknown>) => void; reject: (error: Error) => void };

/**
 * The live view's CDP client over a provider's `cdp` capability: commands answered as promises,
 * events to one listener, everything outstanding rejected once the connection closes (by either
 * side; `onClose` runs once).
 */
export class LiveCdpClient {
  private connection: CdpCapabilityConnection | null = null;
  private readonly pending = new Map<number, Waiter>();
  private nextId = 1;
  private ended = false;
  private readonly onEvent: (event: LiveCdpEvent) => void;
  private readonly onClose: () => void;

  private constructor(onEvent: (event: LiveCdpEvent) => void, onClose: () => void) {
    this.onEvent = onEvent;
    this.onClose = onClose;
  }

  /** Opens a client on a session's browser; null when the provider cannot reach the session. */
  static async open(
    cdp: CdpCapability,
    providerSessionId: string,
    handlers: { onEvent: (event: LiveCdpEvent) => void; onClose: () => void },
  ): Promise<LiveCdpClient | null> {
    const client = new LiveCdpClient(handlers.onEvent, handlers.onClose);
    const connection = await cdp.open(providerSessionId, client.receive, client.closed);
    if (!connection) return null;
    if (client.ended) {
      connection.close();
      return null;
    }
    client.connection = connection;
    return client;
  }

  /** True once the connection has closed. */
  get isClosed(): boolean {
    return this.ended || (this.connection?.isClosed ?? false);
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

  /** Commands sent and not answered yet. */
  get outstanding(): number {
    return this.pending.size;
  }

  /** Closes the connection. */
  close(): void {
    this.connection?.close();
    this.closed();
  }

  private readonly receive = (message: CdpBrowserMessage): void => {
    if (typeof message.id === 'number') {
      const waiter = this.pending.get(message.id);
      if (!waiter) return;
      this.pending.delete(message.id);
      if (message.error) waiter.reject(new Error(message.error.message));
      else waiter.resolve(message.result ?? {});
      return;
    }
    if (typeof message.method !== 'string') return;
    // The browser delivers on the provider's own pipe: a listener's failure must not travel there.
    try {
      this.onEvent(
        message.sessionId === undefined
          ? { method: message.method, params: message.params ?? {} }
          : { method: message.method, params: message.params ?? {}, sessionId: message.sessionId },
      );
    } catch {
      // A malformed event: nothing to show for it.
    }
  };

  private readonly closed = (): void => {
    if (this.ended) return;
    this.ended = true;
    for (const waiter of this.pending.values()) waiter.reject(new Error('CDP connection closed'));
    this.pending.clear();
    this.onClose();
  };
}
