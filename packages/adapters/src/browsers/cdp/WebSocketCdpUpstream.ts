import WebSocket from 'ws';
import type { CdpConnection, CdpUpstream } from './CdpConnection.ts';
import type { CdpBrowserMessage, CdpCommand } from './cdpMessages.ts';

/** What may wait to be written to the browser before `send` asks the caller to wait (`drained`). */
const HIGH_WATER_BYTES = 8 * 1024 * 1024;
/** The largest message taken from the browser (screenshots and heap snapshots are large). */
const MAX_BROWSER_MESSAGE_BYTES = 256 * 1024 * 1024;

/** How a `WebSocketCdpUpstream` connects. */
export interface WebSocketCdpUpstreamOptions {
  /** Extra handshake headers (a Grid behind an authenticating proxy). */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /** How long a handshake may take (default 10 s). */
  readonly handshakeTimeoutMs?: number | undefined;
}

/**
 * CDP connections over a browser-level DevTools WebSocket (a Selenium Grid's `se:cdp`): each client
 * gets a WebSocket of its own, so a browser session of its own that no other client's commands reach.
 * Commands and messages pass as they are (ids are the client's own on its own socket).
 */
export class WebSocketCdpUpstream implements CdpUpstream {
  private readonly url: string;
  private readonly options: WebSocketCdpUpstreamOptions;

  constructor(url: string, options: WebSocketCdpUpstreamOptions = {}) {
    this.url = url;
    this.options = options;
  }

  openClient(
    deliver: (message: CdpBrowserMessage) => void,
    onEnd: () => void = () => {},
  ): Promise<CdpConnection> {
    const ws = new WebSocket(this.url, {
      headers: { ...this.options.headers },
      perMessageDeflate: false,
      maxPayload: MAX_BROWSER_MESSAGE_BYTES,
      handshakeTimeout: this.options.handshakeTimeoutMs ?? 10_000,
    });
    return new Promise((resolve, reject) => {
      ws.once('unexpected-response', (_req, res) => {
        res.resume();
        reject(new Error(`The browser's DevTools endpoint answered ${res.statusCode} to the handshake.`));
        ws.terminate();
      });
      ws.once('error', (error) => reject(error));
      ws.once('open', () => {
        const connection = new WebSocketCdpConnection(ws, deliver, onEnd);
        ws.on('error', () => ws.terminate());
        resolve(connection);
      });
    });
  }
}

class WebSocketCdpConnection implements CdpConnection {
  private readonly ws: WebSocket;
  private unwritten = 0;
  private waiters: Array<() => void> = [];
  private closed = false;

  constructor(ws: WebSocket, deliver: (message: CdpBrowserMessage) => void, onEnd: () => void) {
    this.ws = ws;
    ws.on('message', (data) => {
      let message: CdpBrowserMessage;
      try {
        message = JSON.parse(String(data)) as CdpBrowserMessage;
      } catch {
        return; // The browser only sends JSON; nothing to deliver otherwise.
      }
      if (!this.closed) deliver(message);
    });
    ws.once('close', () => {
      this.closed = true;
      this.release();
      onEnd();
    });
  }

  get isClosed(): boolean {
    return this.closed;
  }

  send(command: CdpCommand): boolean {
    if (this.closed || this.ws.readyState !== WebSocket.OPEN) return true;
    const text = JSON.stringify(command);
    const bytes = Buffer.byteLength(text);
    this.unwritten += bytes;
    this.ws.send(text, () => {
      this.unwritten -= bytes;
      if (this.unwritten < HIGH_WATER_BYTES) this.release();
    });
    return this.unwritten < HIGH_WATER_BYTES;
  }

  drained(): Promise<void> {
    if (this.closed || this.unwritten < HIGH_WATER_BYTES) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.release();
    this.ws.close(1000);
    // A peer that does not answer the close frame is cut.
    setTimeout(() => this.ws.terminate(), 1_000).unref();
  }

  private release(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }
}
