import type { FrameMetadata, LivePage } from '@browserdeck/adapters/live-view';
import { decodeFrame } from '@browserdeck/adapters/live-view';
import { WebSocket } from 'ws';

/** A frame as a viewer received it, with when it arrived (`performance.now()`). */
export interface ReceivedFrame {
  readonly header: FrameMetadata & { pageId: string };
  readonly jpeg: Buffer;
  readonly receivedAt: number;
}

/** A JSON message the hub sent a viewer. */
export type ViewerJsonMessage =
  | { type: 'pages'; pages: LivePage[]; current: string | null }
  | { type: 'ended' }
  | { type: string; [key: string]: unknown };

/**
 * A live-view viewer for tests and benchmarks: a `ws` client that records every frame and JSON
 * message, and waits for the ones a test expects.
 */
export class LiveViewerClient {
  readonly ws: WebSocket;
  readonly frames: ReceivedFrame[] = [];
  readonly messages: ViewerJsonMessage[] = [];
  /** The close code and reason, once closed. */
  closed: { code: number; reason: string } | null = null;
  private readonly waiters = new Set<() => void>();
  /** Called for every frame as it arrives (benchmarks). */
  onFrame: ((frame: ReceivedFrame) => void) | null = null;

  private constructor(ws: WebSocket) {
    this.ws = ws;
    ws.on('message', (data, isBinary) => {
      if (isBinary) {
        const frame = { ...decodeFrame(data as Buffer), receivedAt: performance.now() };
        this.frames.push(frame);
        this.onFrame?.(frame);
      } else this.messages.push(JSON.parse(String(data)) as ViewerJsonMessage);
      this.wake();
    });
    ws.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString() };
      this.wake();
    });
  }

  /** Connects to `url` (a `ws://` URL the test server routes to `serveViewer`). */
  static connect(url: string): Promise<LiveViewerClient> {
    const ws = new WebSocket(url, { perMessageDeflate: false });
    const client = new LiveViewerClient(ws);
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(client));
      ws.once('error', reject);
    });
  }

  /** The latest tab list received. */
  get pages(): Extract<ViewerJsonMessage, { type: 'pages' }> | null {
    for (let i = this.messages.length - 1; i >= 0; i--)
      if (this.messages[i]!.type === 'pages')
        return this.messages[i] as { type: 'pages'; pages: LivePage[]; current: string | null };
    return null;
  }

  /** Sends a message as the viewer page would. */
  send(message: Record<string, unknown>): void {
    this.ws.send(JSON.stringify(message));
  }

  /** Resolves once `check` holds (checked on every message), or rejects after `timeoutMs`. */
  waitFor<T>(
    check: () => T | null | undefined | false,
    timeoutMs = 15_000,
    what = 'a condition',
  ): Promise<T> {
    return new Promise((resolve, reject) => {
      const attempt = (): boolean => {
        const value = check();
        if (value === null || value === undefined || value === false) return false;
        this.waiters.delete(attempt);
        clearTimeout(timer);
        resolve(value);
        return true;
      };
      const timer = setTimeout(() => {
        this.waiters.delete(attempt);
        reject(new Error(`The viewer did not see ${what} within ${timeoutMs} ms`));
      }, timeoutMs);
      if (!attempt()) this.waiters.add(attempt);
    });
  }

  /** The first frame after the `after`-th one that satisfies `check` (default: any). */
  nextFrame(
    after = this.frames.length,
    check: (frame: ReceivedFrame) => boolean = () => true,
  ): Promise<ReceivedFrame> {
    return this.waitFor(() => this.frames.slice(after).find(check), 15_000, 'a frame');
  }

  /** Closes the socket and waits until it is closed. */
  async close(): Promise<void> {
    if (!this.closed) {
      this.ws.close();
      await this.waitFor(() => this.closed !== null, 5_000, 'its close');
    }
  }

  private wake(): void {
    for (const waiter of [...this.waiters]) waiter();
  }
}
