import type { CdpConnection, CdpUpstream } from '../../cdp/CdpConnection.ts';
import type { CdpBrowserMessage, CdpCommand } from '../../cdp/cdpMessages.ts';
import type { CdpPipe } from './CdpPipe.ts';

export type { CdpConnection } from '../../cdp/CdpConnection.ts';

type Deliver = (message: CdpBrowserMessage) => void;

/** Commands whose answer names a new session, owned by the connection that sent them. */
const ATTACHING_METHODS = new Set(['Target.attachToTarget', 'Target.attachToBrowserTarget']);

class Connection implements CdpConnection {
  isClosed = false;
  readonly router: CdpRouter;
  readonly deliver: Deliver;
  readonly onClose: () => void;
  /** The browser-target session standing for this connection; undefined for the root. */
  readonly rootSession: string | undefined;

  constructor(router: CdpRouter, deliver: Deliver, onClose: () => void, rootSession: string | undefined) {
    this.router = router;
    this.deliver = deliver;
    this.onClose = onClose;
    this.rootSession = rootSession;
  }

  send(command: CdpCommand): boolean {
    return this.router.sendFrom(this, command);
  }

  drained(): Promise<void> {
    return this.router.drained();
  }

  close(): void {
    this.router.closeConnection(this);
  }
}

type Pending =
  | { readonly kind: 'client'; readonly connection: Connection; readonly id: number; readonly method: string }
  | { readonly kind: 'internal'; readonly done: (message: CdpBrowserMessage) => void };

/**
 * Shares one DevTools pipe between the provider's own connection (the root browser session, which
 * records logs) and any number of clients. Each client gets a browser-target session of its own
 * (`Target.attachToBrowserTarget`), so it sees the browser as if it were the only client: its
 * commands without a `sessionId` go to that session, ids are renumbered, and answers and events
 * come back only to the connection that owns the session they belong to (targets a client
 * attaches, flat mode, are its own). A client can never address another connection's sessions.
 */
export class CdpRouter implements CdpUpstream {
  private readonly pipe: CdpPipe;
  private readonly pending = new Map<number, Pending>();
  private readonly owners = new Map<string, Connection>();
  private readonly connections = new Set<Connection>();
  private root: Connection | null = null;
  private nextId = 1;

  constructor(pipe: CdpPipe) {
    this.pipe = pipe;
    pipe.onMessage((message) => this.onMessage(message));
    pipe.onClose(() => {
      for (const connection of [...this.connections]) this.closeConnection(connection);
      for (const pending of this.pending.values())
        if (pending.kind === 'internal') pending.done({ error: { message: 'The browser has gone.' } });
      this.pending.clear();
    });
  }

  /** The provider's own connection: the pipe's root session (browser-wide events come here). */
  openRoot(deliver: Deliver, onClose: () => void = () => {}): CdpConnection {
    if (this.root) throw new Error('The root connection is already open');
    this.root = this.register(new Connection(this, deliver, onClose, undefined));
    return this.root;
  }

  /** A client connection with a browser-target session of its own; rejects when the browser is gone. */
  async openClient(deliver: Deliver, onClose: () => void = () => {}): Promise<CdpConnection> {
    const answer = await this.call('Target.attachToBrowserTarget', {});
    const sessionId = answer.result?.sessionId;
    if (typeof sessionId !== 'string')
      throw new Error(`The browser refused a client session: ${answer.error?.message ?? 'no session id'}`);
    const connection = this.register(new Connection(this, deliver, onClose, sessionId));
    this.owners.set(sessionId, connection);
    return connection;
  }

  /** Called by a connection: forwards its command, renumbered and addressed to its own session. */
  sendFrom(connection: Connection, command: CdpCommand): boolean {
    if (connection.isClosed) return true;
    const sessionId = command.sessionId ?? connection.rootSession;
    const named = command.method === 'Target.detachFromTarget' ? command.params?.sessionId : undefined;
    const foreign = [command.sessionId, named].some(
      (id) => id !== undefined && (typeof id !== 'string' || this.owners.get(id) !== connection),
    );
    if (foreign) {
      connection.deliver({
        id: command.id,
        error: { code: -32001, message: 'Session with given id not found.' },
        ...(command.sessionId === undefined ? {} : { sessionId: command.sessionId }),
      });
      return true;
    }
    const id = this.nextId++;
    this.pending.set(id, { kind: 'client', connection, id: command.id, method: command.method });
    return this.pipe.send(
      JSON.stringify({ id, method: command.method, params: command.params ?? {}, sessionId }),
    );
  }

  /** Resolves once the browser has read what was sent. */
  drained(): Promise<void> {
    return this.pipe.drained();
  }

  /** Called by a connection: detaches its session and forgets everything it owned. */
  closeConnection(connection: Connection): void {
    if (connection.isClosed) return;
    connection.isClosed = true;
    this.connections.delete(connection);
    for (const [sessionId, owner] of this.owners) if (owner === connection) this.owners.delete(sessionId);
    if (connection.rootSession !== undefined && !this.pipe.isClosed)
      void this.call('Target.detachFromTarget', { sessionId: connection.rootSession });
    connection.onClose();
  }

  private register(connection: Connection): Connection {
    this.connections.add(connection);
    return connection;
  }

  private call(method: string, params: Record<string, unknown>): Promise<CdpBrowserMessage> {
    if (this.pipe.isClosed) return Promise.resolve({ error: { message: 'The browser has gone.' } });
    const id = this.nextId++;
    return new Promise((done) => {
      this.pending.set(id, { kind: 'internal', done });
      this.pipe.send(JSON.stringify({ id, method, params }));
    });
  }

  private onMessage(raw: string): void {
    let message: CdpBrowserMessage;
    try {
      message = JSON.parse(raw) as CdpBrowserMessage;
    } catch {
      return; // The browser only sends JSON; nothing to route otherwise.
    }
    if (typeof message.id === 'number') this.onAnswer(message);
    else if (typeof message.method === 'string') this.onEvent(message);
  }

  private onAnswer(message: CdpBrowserMessage): void {
    const pending = this.pending.get(message.id!);
    if (!pending) return;
    this.pending.delete(message.id!);
    if (pending.kind === 'internal') {
      pending.done(message);
      return;
    }
    const { connection } = pending;
    if (connection.isClosed) return;
    const child = message.result?.sessionId;
    if (ATTACHING_METHODS.has(pending.method) && typeof child === 'string')
      this.owners.set(child, connection);
    this.deliverTo(connection, { ...message, id: pending.id });
  }

  private onEvent(message: CdpBrowserMessage): void {
    // The browser-target sessions the router opens for clients are its own business, not the root's.
    const info = message.params?.targetInfo as { type?: unknown } | undefined;
    if (
      message.sessionId === undefined &&
      message.method === 'Target.attachedToTarget' &&
      info?.type === 'browser'
    )
      return;
    const connection = message.sessionId === undefined ? this.root : this.owners.get(message.sessionId);
    if (!connection || connection.isClosed) return;
    const child = message.params?.sessionId;
    if (message.method === 'Target.attachedToTarget' && typeof child === 'string')
      this.owners.set(child, connection);
    this.deliverTo(connection, message);
    if (message.method === 'Target.detachedFromTarget' && typeof child === 'string')
      if (this.owners.get(child) === connection && child !== connection.rootSession)
        this.owners.delete(child);
  }

  private deliverTo(connection: Connection, message: CdpBrowserMessage): void {
    if (message.sessionId !== undefined && message.sessionId === connection.rootSession) {
      const { sessionId: _own, ...rest } = message;
      connection.deliver(rest);
    } else connection.deliver(message);
  }
}
