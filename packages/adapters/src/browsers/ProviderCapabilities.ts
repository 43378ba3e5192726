import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { BrowserProvider } from '@browserdeck/domain';

/** Why a WebSocket upgrade is refused: the host answers it as an API error (`refuseUpgrade`). */
export interface UpgradeRefusal {
  code: 'not_found' | 'unauthorized' | 'session_ended';
  detail: string;
}

/** A provider that serves sessions' `connectUrl` WebSockets on the API's own HTTP server. */
export interface UpgradeCapability {
  /**
   * True when the upgrade was taken (the socket is now the provider's); a refusal for the host to
   * answer; false when the request is not for one of the provider's endpoints at all.
   */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean | UpgradeRefusal;
}

/** A provider that holds resources (browsers, pools): started before use, closed at shutdown. */
export interface LifecycleCapability {
  start(): Promise<void>;
  /** Ends every session it runs and frees what it holds. */
  close(): Promise<void>;
}

/** A CDP command as a `CdpCapability` connection sends it; `sessionId` addresses a target attached in flat mode. */
export interface CdpCommandMessage {
  readonly id: number;
  readonly method: string;
  readonly params?: Record<string, unknown>;
  readonly sessionId?: string;
}

/** A message from the browser to a `CdpCapability` connection: an answer (`id`) or an event (`method`). */
export interface CdpBrowserMessage {
  id?: number;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { code?: number; message: string };
  sessionId?: string;
}

/**
 * An in-process CDP connection to one session's browser, with a browser-target session of its own:
 * commands without a `sessionId` address the browser; answers and events come back through the
 * `deliver` it was opened with.
 */
export interface CdpCapabilityConnection {
  send(command: CdpCommandMessage): void;
  /** Ends the connection (its `onClose` is called, and nothing more is delivered). */
  close(): void;
  /** True once closed, by either side. */
  readonly isClosed: boolean;
}

/** A provider whose sessions' browsers this process reaches over CDP (the live view uses it). */
export interface CdpCapability {
  /**
   * Opens an in-process CDP connection to a running session's browser; null when this process runs
   * no such session (unknown, ended, or on another instance). Every command passes the same checks
   * as a `connectUrl` client's, a refused one is answered with a CDP error; the connection does not
   * count as a connected client (a session without `keepAlive` still ends when its last real client
   * leaves), and it closes (`onClose`) when the session ends.
   */
  open(
    providerSessionId: string,
    deliver: (message: CdpBrowserMessage) => void,
    onClose: () => void,
  ): Promise<CdpCapabilityConnection | null>;
}

/** The optional capabilities a browser provider declares by name; absent means it has none. */
export interface ProviderCapabilities {
  readonly upgrades?: UpgradeCapability | undefined;
  readonly lifecycle?: LifecycleCapability | undefined;
  readonly cdp?: CdpCapability | undefined;
}

/** A browser provider as the composition takes it: the domain port plus declared capabilities. */
export interface ComposableBrowserProvider extends BrowserProvider {
  readonly capabilities?: ProviderCapabilities | undefined;
}
