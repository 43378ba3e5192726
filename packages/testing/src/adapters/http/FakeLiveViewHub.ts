import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { LivePage, LiveViewerOptions, LiveViewHub } from '@browserdeck/adapters/live-view';
import { REVOKED_REASON, VIEWER_CLOSE } from '@browserdeck/adapters/live-view';
import { type WebSocket, WebSocketServer } from 'ws';

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
 * completes the WebSocket handshake, then sends the viewer its options (but the signal) as one JSON
 * message; an aborted signal closes the viewer as the real hub does.
 */
export class FakeLiveViewHub implements LiveViewHub {
  /** Tabs by provider session id. */
  readonly tabs = new Map<string, LivePage[]>();
  /** Provider session ids whose browser this process "cannot reach". */
  readonly unreachable = new Set<string>();
  /** Every viewer admitted, in order (without its signal). */
  readonly viewers: Array<Omit<LiveViewerOptions, 'signal'>> = [];
  private readonly server = new WebSocketServer({ noServer: true });
  private readonly sockets = new Set<WebSocket>();

  async pages(providerSessionId: string): Promise<LivePage[] | null> {
    if (this.unreachable.has(providerSessionId)) return null;
    return this.tabs.get(providerSessionId) ?? [FAKE_LIVE_PAGE];
  }

  serveViewer(req: IncomingMessage, socket: Duplex, head: Buffer, options: LiveViewerOptions): void {
    const { signal, ...recorded } = options;
    this.viewers.push(recorded);
    this.server.handleUpgrade(req, socket, head, (ws) => {
      this.sockets.add(ws);
      ws.on('close', () => this.sockets.delete(ws));
      ws.send(JSON.stringify({ type: 'fake-viewer', ...recorded }));
      const revoke = () => ws.close(VIEWER_CLOSE.revoked, REVOKED_REASON);
      if (signal?.aborted) revoke();
      else signal?.addEventListener('abort', revoke, { once: true });
    });
  }

  async close(): Promise<void> {
    for (const ws of this.sockets) ws.terminate();
    this.sockets.clear();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
