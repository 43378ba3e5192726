import type { CdpClientConnection } from './CdpClient.ts';
import type { CdpBrowserMessage, CdpCommand } from './cdpMessages.ts';

/**
 * One client's view of a browser: what it sends goes out, what belongs to it comes back. Closing
 * it, by either side, ends that client's browser session.
 */
export interface CdpConnection extends CdpClientConnection {
  /**
   * Sends a command; an answer or error comes back through the connection's listener. False when
   * the browser has not kept up: wait for `drained()` before sending more.
   */
  send(command: CdpCommand): boolean;
  /** Resolves once the browser has read what was sent. */
  drained(): Promise<void>;
}

/**
 * Where a provider's CDP clients are connected: a connection per client, with a browser session of
 * its own. The local provider's is its pipe router (`CdpRouter`); the Selenium Grid provider's a
 * WebSocket to the session's `se:cdp` per client.
 */
export interface CdpUpstream {
  /**
   * Opens a client connection: `deliver` gets its answers and events, `onEnd` is called once when it
   * closes by either side. Rejects when the browser cannot be reached.
   */
  openClient(deliver: (message: CdpBrowserMessage) => void, onEnd?: () => void): Promise<CdpConnection>;
}
