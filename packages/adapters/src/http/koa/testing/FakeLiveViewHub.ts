import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { type WebSocket, WebSocketServer } from 'ws';
import type { LivePage, LiveViewerOptions, LiveViewHub } from '../../../browsers/live-view/LiveViewHub.ts';

/** The tab every session of the fake has unless a test sets others. */
export const FAKE_LIVE_PAGE: LivePage = {
  id: 'FAKE-TARGET-1',
  url: 'about:blank',
  title: 'New Tab',
  faviconUrl: '',
};

/**
 * A live-view hub for HTTP tests: `pages` answers the tabs a test set for a session (one blank tab
 * by default; null for a session marked `unreachable`); `serveViewer` records what it was asked and
 * completes the WebSocket handshake, then sends the viewer its options as one JSON message.
 */
export class FakeLiveViewHub implements LiveViewHub {
  /** Tabs by provider session id. */
  readonly tabs = new Map<string, LivePage[]>();
  /** Provider session ids whose browser this process "cannot reach". */
  readonly unreachable = new Set<string>();
  /** Every viewer admitted, in order. */
  readonly viewers: LiveViewerOptions[] = [];
  private readonly server = new WebSocketServer({ noServer: true });
  private readonly sockets = new Set<WebSocket>();

  async pages(providerSessionId: string): Promise<LivePage[] | null> {
    if (this.unreachable.has(providerSessionId)) return null;
    return this.tabs.get(providerSessionId) ?? [FAKE_LIVE_PAGE];
  }

  serveViewer(req: IncomingMessage, socket: Duplex, head: Buffer, options: LiveViewerOptions): void {
    this.viewers.push(options);
    this.server.handleUpgrade(req, socket, head, (ws) => {
      this.sockets.add(ws);
      ws.on('close', () => this.sockets.delete(ws));
      ws.send(JSON.stringify({ type: 'fake-viewer', ...options }));
    });
  }

  async close(): Promise<void> {
    for (const ws of this.sockets) ws.terminate();
    this.sockets.clear();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
