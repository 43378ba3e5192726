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

/** The optional capabilities a browser provider declares by name; absent means it has none. */
export interface ProviderCapabilities {
  readonly upgrades?: UpgradeCapability | undefined;
  readonly lifecycle?: LifecycleCapability | undefined;
}

/** A browser provider as the composition takes it: the domain port plus declared capabilities. */
export interface ComposableBrowserProvider extends BrowserProvider {
  readonly capabilities?: ProviderCapabilities | undefined;
}
