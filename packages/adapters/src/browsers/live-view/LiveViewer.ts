import type { WebSocket } from 'ws';
import type { LivePage } from './LiveViewHub.ts';

/**
 * What may wait unsent for one viewer before frames skip it: about two large frames. A viewer that
 * reads slowly sees fewer frames; it never holds the browser or the other viewers back.
 */
export const MAX_VIEWER_BACKLOG_BYTES = 512 * 1024;

/** Close codes a viewer's socket ends with. */
export const VIEWER_CLOSE = {
  /** The session ended (after `{ type: 'ended' }`), or the server is shutting down. */
  goingAway: 1001,
  /** The viewer sent a message that is not one of §14's. */
  policy: 1008,
  /**
   * What its token was made with no longer holds: the project was archived, the API key revoked or
   * expired, or the sign-in ended (a policy close too: reconnecting with the same token is refused).
   */
  revoked: 1008,
  /** The browser did not answer the live view's commands. */
  failed: 1011,
} as const;

/** The close reason of a viewer whose grant was withdrawn (`LiveViewerOptions.signal`). */
export const REVOKED_REASON = 'The live view’s access was withdrawn.';

/** One viewer's WebSocket: the tab it watches, and what it is sent. */
export class LiveViewer {
  readonly ws: WebSocket;
  /** True: its input messages are dropped. */
  readonly readOnly: boolean;
  /** The tab it watches (a target id), null while the browser has no page. */
  pageId: string | null = null;
  /** True when a frame of its tab skipped it: it is owed the latest one once it has caught up. */
  owed = false;

  constructor(ws: WebSocket, readOnly: boolean) {
    this.ws = ws;
    this.readOnly = readOnly;
  }

  /** True while it can be sent to. */
  get open(): boolean {
    return this.ws.readyState === this.ws.OPEN;
  }

  /** True when what waits for it is small enough to send it a frame. */
  get ready(): boolean {
    return this.open && this.ws.bufferedAmount <= MAX_VIEWER_BACKLOG_BYTES;
  }

  /** Sends a frame message when it is `ready` (true), else marks it owed one (false). */
  offerFrame(frame: Buffer): boolean {
    if (!this.ready) {
      this.owed = true;
      return false;
    }
    this.owed = false;
    this.ws.send(frame, { binary: true });
    return true;
  }

  /** The tab list and the tab it watches (or is about to: the list goes before that tab's frames). */
  sendPages(pages: readonly LivePage[], current: string | null = this.pageId): void {
    if (this.open) this.ws.send(JSON.stringify({ type: 'pages', pages, current }));
  }

  /** Tells it the session has ended and closes (1001). */
  sendEnded(): void {
    if (this.open) this.ws.send(JSON.stringify({ type: 'ended' }));
    this.close(VIEWER_CLOSE.goingAway, 'The session has ended.');
  }

  /** Closes its socket (a no-op once closing). */
  close(code: number, reason: string): void {
    if (this.ws.readyState === this.ws.CONNECTING || this.ws.readyState === this.ws.OPEN)
      this.ws.close(code, reason);
  }
}
