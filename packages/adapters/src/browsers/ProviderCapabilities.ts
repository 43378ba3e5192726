import type { BrowserProvider, ProviderCapabilities } from '@browserdeck/domain';
import type { PassthroughEndpoint } from '../shared/PassthroughEndpoint.ts';
import type { UpgradeEndpoint } from '../shared/UpgradeEndpoint.ts';
import type { CdpClientConnection } from './cdp/CdpClient.ts';
import type { CdpBrowserMessage, CdpCommand } from './cdp/cdpMessages.ts';

export type {
  PassthroughEndpoint,
  PassthroughOutcome,
  PassthroughRefusal,
  PassthroughRequest,
} from '../shared/PassthroughEndpoint.ts';
export type { UpgradeRefusal } from '../shared/UpgradeEndpoint.ts';

/**
 * A provider that serves sessions' `connectUrl` WebSockets on the API's own HTTP server: it declares
 * the endpoints, the HTTP adapter puts them in its route table and matches upgrade requests to them.
 */
export interface UpgradeCapability {
  readonly endpoints: readonly UpgradeEndpoint[];
}

/**
 * A provider that serves sessions' `seleniumRemoteUrl` on the API's own HTTP server: it declares the
 * WebDriver endpoints, the HTTP adapter puts them in its route table and hands them their requests
 * raw (passthrough endpoints). For a session this process does not hold, an endpoint answers
 * `not_found`.
 */
export interface WebDriverCapability {
  readonly endpoints: readonly PassthroughEndpoint[];
}

/** A provider that holds resources (browsers, pools): started before use, closed at shutdown. */
export interface LifecycleCapability {
  start(): Promise<void>;
  /** Ends every session it runs and frees what it holds. */
  close(): Promise<void>;
}

/**
 * Work a provider does in the background on every instance that has it (Browserbase: the search for
 * browsers left by failed creates). Started with the host's background work (`Browserdeck.start()`),
 * stopped at close while the database is still open; `stop()` waits for work in progress.
 */
export interface BackgroundCapability {
  start(): void;
  stop(): Promise<void>;
}

// `CdpCommandMessage` is the public name (the package index exports this file) of the one command type.
export type { CdpBrowserMessage, CdpCommand as CdpCommandMessage } from './cdp/cdpMessages.ts';

/**
 * An in-process CDP connection to one session's browser, with a browser-target session of its own:
 * commands without a `sessionId` address the browser; answers and events come back through the
 * `deliver` it was opened with. Closing it, by either side, calls its `onClose`, and nothing more is
 * delivered.
 */
export interface CdpCapabilityConnection extends CdpClientConnection {
  send(command: CdpCommand): void;
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

/**
 * The capabilities a provider adapter may declare beyond the domain's (`ProviderCapabilities`): what
 * this process serves for it (WebSocket upgrades, WebDriver endpoints, in-process CDP) and the
 * resources it holds (lifecycle, background work). The HTTP adapter and the composition use them;
 * the provider imports nothing of HTTP.
 */
export interface AdapterCapabilities extends ProviderCapabilities {
  readonly upgrades?: UpgradeCapability | undefined;
  readonly lifecycle?: LifecycleCapability | undefined;
  readonly cdp?: CdpCapability | undefined;
  readonly webdriver?: WebDriverCapability | undefined;
  readonly background?: BackgroundCapability | undefined;
}

/** A browser provider as the composition takes it: the domain port with the adapters' capabilities. */
export type ComposableBrowserProvider = BrowserProvider<AdapterCapabilities>;
