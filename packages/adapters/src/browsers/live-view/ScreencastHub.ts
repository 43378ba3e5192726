import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { type Logger, silentLogger } from '@browserdeck/domain';
import { type WebSocket, WebSocketServer } from 'ws';
import type { CdpCapability } from '../ProviderCapabilities.ts';
import { LiveSession } from './LiveSession.ts';
import { LiveViewer, REVOKED_REASON, VIEWER_CLOSE } from './LiveViewer.ts';
import type { LivePage, LiveViewerOptions, LiveViewHub } from './LiveViewHub.ts';
import { openCdpClient } from './openCdpClient.ts';
import { MAX_VIEWER_MESSAGE_BYTES } from './parseViewerMessage.ts';

/** How often viewers are pinged; one that has not answered the previous ping is cut. */
const HEARTBEAT_MS = 30_000;
/** How long `close` waits for viewers to answer their close frames. */
const CLOSE_GRACE_MS = 1_000;
/** Viewers of one session at once by default. */
const DEFAULT_MAX_VIEWERS_PER_SESSION = 8;
/** WebSocket close code "Try Again Later" (RFC 6455 registry): the session has its most viewers. */
const TRY_AGAIN_LATER = 1013;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The live view over CDP screencasts (http-api.md §14), for any provider with the `cdp` capability:
 * per browser session a `LiveSession` (one CDP connection while someone watches), per watched tab
 * one shared `TabScreencast`. Viewers are WebSockets (`ws`, handshakes only): the server sends
 * binary frames (`encodeFrame`), `{ type: 'pages', pages, current }` and `{ type: 'ended' }`; a
 * viewer sends `select`, and unless read-only, mouse, wheel, key and text input, which become
 * `Input.*` commands and nothing else. A message that is not one of these closes the viewer (1008),
 * and so does the viewer's `signal` (its grant was withdrawn). A session takes at most
 * `maxViewersPerSession` viewers at once; one more is closed at once with 1013 (try again later).
 */
export class ScreencastHub implements LiveViewHub {
  private readonly cdp: CdpCapability;
  private readonly logger: Logger;
  private readonly minFrameIntervalMs: number | undefined;
  private readonly sessions = new Map<string, LiveSession>();
  private readonly sockets = new Set<WebSocket>();
  /** Open viewers by provider session id, against `maxViewersPerSession`. */
  private readonly viewers = new Map<string, number>();
  private readonly maxViewersPerSession: number;
  private readonly alive = new WeakSet<WebSocket>();
  private readonly server = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_VIEWER_MESSAGE_BYTES,
    // Frames are JPEG: compressing them again costs CPU and saves nothing.
    perMessageDeflate: false,
    clientTracking: false,
  });
  private readonly heartbeat: NodeJS.Timeout;
  private closed = false;

  constructor(deps: {
    cdp: CdpCapability;
    logger?: Logger;
    /**
     * The least time between two frames of a tab, in milliseconds (default 50: at most 20 frames a
     * second); 0 takes every frame the browser paints.
     */
    minFrameIntervalMs?: number;
    /** Viewers of one session at once (default 8); one more is closed with 1013 (try again later). */
    maxViewersPerSession?: number;
  }) {
    this.cdp = deps.cdp;
    this.maxViewersPerSession = deps.maxViewersPerSession ?? DEFAULT_MAX_VIEWERS_PER_SESSION;
    this.logger = deps.logger ?? silentLogger;
    this.minFrameIntervalMs = deps.minFrameIntervalMs;
    this.heartbeat = setInterval(() => this.ping(), HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  async pages(providerSessionId: string): Promise<LivePage[] | null> {
    const live = this.sessions.get(providerSessionId);
    if (live && (await live.ready())) return live.listPages();
    const client = await openCdpClient(this.cdp, providerSessionId, {
      onEvent: () => {},
      onClose: () => {},
    });
    if (!client) return null;
    try {
      const { targetInfos } = await client.send('Target.getTargets');
      const infos = Array.isArray(targetInfos) ? (targetInfos as Array<Record<string, unknown>>) : [];
      return infos
        .filter((t) => t.type === 'page' && typeof t.targetId === 'string')
        .map((t) => ({
          id: t.targetId as string,
          url: typeof t.url === 'string' ? t.url : '',
          title: typeof t.title === 'string' ? t.title : '',
          faviconUrl: '',
        }));
    } catch {
      return null;
    } finally {
      client.close();
    }
  }

  serveViewer(req: IncomingMessage, socket: Duplex, head: Buffer, options: LiveViewerOptions): void {
    if (this.closed) {
      socket.destroy();
      return;
    }
    this.server.handleUpgrade(req, socket, head, (ws) => {
      if (this.closed) {
        ws.close(VIEWER_CLOSE.goingAway, 'The server is shutting down.');
        return;
      }
      const id = options.providerSessionId;
      const watching = this.viewers.get(id) ?? 0;
      if (watching >= this.maxViewersPerSession) {
        ws.close(TRY_AGAIN_LATER, `The session has its most viewers (${this.maxViewersPerSession}).`);
        return;
      }
      this.viewers.set(id, watching + 1);
      this.sockets.add(ws);
      this.alive.add(ws);
      ws.on('pong', () => this.alive.add(ws));
      ws.on('close', () => {
        this.sockets.delete(ws);
        const left = (this.viewers.get(id) ?? 1) - 1;
        if (left > 0) this.viewers.set(id, left);
        else this.viewers.delete(id);
      });
      const viewer = new LiveViewer(ws, options.readOnly);
      if (options.signal?.aborted) {
        viewer.close(VIEWER_CLOSE.revoked, REVOKED_REASON);
        return;
      }
      options.signal?.addEventListener('abort', () => viewer.close(VIEWER_CLOSE.revoked, REVOKED_REASON), {
        once: true,
      });
      this.session(options.providerSessionId).addViewer(viewer, options.pageId);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.heartbeat);
    for (const live of [...this.sessions.values()]) live.finish('shutdown');
    this.sessions.clear();
    // Their close frames get a moment to go out; a viewer that does not answer is cut.
    const deadline = Date.now() + CLOSE_GRACE_MS;
    while (this.sockets.size > 0 && Date.now() < deadline) await pause(20);
    for (const ws of this.sockets) ws.terminate();
    this.sockets.clear();
  }

  private session(providerSessionId: string): LiveSession {
    const known = this.sessions.get(providerSessionId);
    if (known && !known.done) return known;
    const live = new LiveSession({
      providerSessionId,
      cdp: this.cdp,
      logger: this.logger,
      minFrameIntervalMs: this.minFrameIntervalMs,
      onDone: (done) => {
        if (this.sessions.get(providerSessionId) === done) this.sessions.delete(providerSessionId);
      },
    });
    this.sessions.set(providerSessionId, live);
    return live;
  }

  private ping(): void {
    for (const ws of this.sockets) {
      if (!this.alive.has(ws)) {
        ws.terminate();
        continue;
      }
      this.alive.delete(ws);
      ws.ping();
    }
  }
}
