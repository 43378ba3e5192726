import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';

/** One tab of a session's browser, as the live view lists it (Browserbase's `pages` item, without URLs). */
export interface LivePage {
  /** The CDP target id. */
  readonly id: string;
  readonly url: string;
  readonly title: string;
  /** The page's icon, or an empty string when it has none we know of. */
  readonly faviconUrl: string;
}

/** What one viewer connection asked for, once its token was checked (http-api.md §14). */
export interface LiveViewerOptions {
  /** The provider's id of the session to show. */
  readonly providerSessionId: string;
  /** The tab to show first; null for the first page tab. */
  readonly pageId: string | null;
  /** True: frames only; input messages from this viewer are dropped. */
  readonly readOnly: boolean;
  /**
   * Aborted when the viewer's grant no longer holds (its project archived, API key revoked or
   * sign-in ended): the hub then closes it with `VIEWER_CLOSE.revoked` (1008).
   */
  readonly signal?: AbortSignal | undefined;
}

/**
 * Shows sessions' browsers live over CDP: one screencast per watched tab, shared by every viewer of
 * it, running only while someone watches; input from viewers forwarded through `Input.dispatch*`.
 * Works for any provider that declares the `cdp` capability.
 */
export interface LiveViewHub {
  /** The tabs of a running session; null when this process cannot reach the session's browser. */
  pages(providerSessionId: string): Promise<LivePage[] | null>;
  /**
   * Completes a viewer's WebSocket handshake (the token was already checked) and serves it until it
   * or the session goes away.
   */
  serveViewer(req: IncomingMessage, socket: Duplex, head: Buffer, options: LiveViewerOptions): void;
  /** Closes every viewer and screencast. */
  close(): Promise<void>;
}
