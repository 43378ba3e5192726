import type { BrowserContextStore } from '../contexts/BrowserContextStore.ts';
import type { ProviderLiveUrls } from './ProviderLiveUrls.ts';
import type { SessionLogEntry } from './SessionLogEntry.ts';
import type { SessionStatus } from './sessionStatus.ts';

/** What a provider says about one of its sessions. */
export interface ProviderSessionSnapshot {
  readonly providerSessionId: string;
  readonly providerProjectId: string;
  readonly status: SessionStatus;
  readonly connectUrl: string;
  readonly seleniumRemoteUrl: string | null;
  readonly startedAt: Date;
  readonly endedAt: Date | null;
  readonly expiresAt: Date | null;
  /**
   * The provider instance holding the browser, when only it can reach it (`BrowserProvider.instanceId`);
   * absent or null when every instance can.
   */
  readonly instanceId?: string | null;
  /** Proxy bytes in and out so far, when the provider meters them itself (Browserbase's `proxyBytes`). */
  readonly proxyBytes?: number;
}

/** The size of a browser's window and pages, in CSS pixels (`VIEWPORT_MIN_SIDE`..`VIEWPORT_MAX_SIDE`). */
export interface SessionViewport {
  readonly width: number;
  readonly height: number;
}

/**
 * One of a session's upstream proxies, in Browserbase's shapes: the caller's own proxy (`external`),
 * no proxy (`none`: direct, through the egress proxy alone) or the provider's own (`browserbase`).
 * `domainPattern` (a regular expression over the host name) picks which requests it carries; the
 * first matching entry wins, and an entry without one matches every host.
 */
export type SessionProxy =
  | {
      readonly type: 'external';
      readonly server: string;
      readonly username?: string | undefined;
      readonly password?: string | undefined;
      readonly domainPattern?: string | undefined;
    }
  | { readonly type: 'none'; readonly domainPattern?: string | undefined }
  | {
      readonly type: 'browserbase';
      readonly geolocation?:
        | { readonly country: string; readonly state?: string; readonly city?: string }
        | undefined;
      readonly domainPattern?: string | undefined;
    };

/** An extension a session's browser loads: the stored zip (validated at upload). */
export interface SessionExtension {
  readonly id: string;
  readonly name: string;
  /** The zip as uploaded: `manifest.json` at its root. */
  readonly archive: Uint8Array;
  /** The provider's own id for it, when the provider keeps extensions itself (Browserbase). */
  readonly providerExtensionId: string | null;
}

/** A provider's own store of extensions (`BrowserProvider.extensions`). */
export interface ProviderExtensionStore {
  /** Uploads an extension zip (already checked) under `fileName`; answers the provider's id for it. */
  upload(archive: Uint8Array, fileName: string): Promise<string>;
  /** Deletes one; an id the provider no longer knows is not an error. */
  delete(providerExtensionId: string): Promise<void>;
}

/** A file put where the session's page can take it (`setInputFiles`). */
export interface UploadedSessionFile {
  readonly name: string;
  readonly size: number;
  /** Where the browser sees it: the path to hand to `setInputFiles` / `DOM.setFileInputFiles`. */
  readonly path: string;
}

/** Bytes a provider metered for one session since it was last asked. */
export interface ProxyBytesDelta {
  readonly providerSessionId: string;
  readonly bytes: number;
}

/** What a provider needs to start a browser. Script and env stay with us. */
export interface CreateBrowserRequest {
  /** Our session id, for the provider's metadata (small identifiers only). */
  readonly sessionId: string;
  /** Our project id, likewise. */
  readonly projectId: string;
  /**
   * The account the session counts against: the user who owns the project, whatever credential
   * (sign-in or the project's API key) asked. A provider's fair share is per owner.
   */
  readonly ownerId: string;
  readonly providerProjectId: string;
  readonly region: string;
  readonly timeoutSec: number;
  readonly contextId: string | null;
  /**
   * With a `contextId`: true saves what the browser changes in the context's profile back to it;
   * false opens the profile without saving anything back. Meaningless without a context.
   */
  readonly contextPersist: boolean;
  readonly extensionId: string | null;
  /** The extension `extensionId` names, loaded (unpacked) into the session's browser; null: none. */
  readonly extension: SessionExtension | null;
  /** Upstream proxies for the session's traffic; null: direct (through the egress proxy alone). */
  readonly proxies: readonly SessionProxy[] | null;
  /**
   * False: the session ends (`COMPLETED`) once the last client connected to it disconnects
   * (Browserbase's default). True: it lives until released or timed out, connected or not. Null: the
   * request did not say; the provider's own default (local: true; Browserbase: its default, sent as
   * nothing, so a plan without keepAlive can still create sessions).
   */
  readonly keepAlive: boolean | null;
  /** The window and page size the browser starts with; null for the provider's default. */
  readonly viewport: SessionViewport | null;
}

/**
 * A cloud-browser provider. Failures are `ProviderError`s: `provider_rate_limited` (with
 * `retryAfterSec`), `provider_error`, `provider_unavailable`, `provider_timeout`.
 */
export interface BrowserProvider {
  /** `local`, `browserbase`, …: the `{provider}` path segment. */
  readonly name: string;
  /** Region codes this provider accepts; the first is the default. */
  readonly regions: readonly string[];
  /** The provider project used when a request names none. */
  readonly defaultProviderProjectId: string;
  /**
   * Set by a provider whose browsers live in this process only (`local`): the id every snapshot it
   * hands out carries, stored with the session. A session stored with another instance's id is out
   * of this provider's reach: it is neither asked about nor taken as gone (`sessionReach`). Absent
   * when every instance reaches every session (Browserbase).
   */
  readonly instanceId?: string;
  /**
   * True when calls about sessions another live instance holds are carried to that instance (the
   * composition's instance forwarding): such sessions are then in reach like this instance's own,
   * and `instanceId` only says which instance a new session's browser is on.
   */
  readonly reachesOtherInstances?: boolean;
  /**
   * False when the provider cannot load browser extensions: a create naming an `extensionId` is then
   * refused with `unsupported_option` rather than run without it. Absent means it can.
   */
  readonly loadsExtensions?: boolean;
  /** With `loadsExtensions` false: what would let it (e.g. what to install), added to the refusal. */
  readonly extensionsHint?: string;
  /**
   * False when the provider cannot route a session's traffic through upstream proxies: a create
   * naming any proxy other than `none` is then refused with `unsupported_option` rather than run
   * without it. Absent means it can (which entry types it honours is its own to check at create).
   */
  readonly routesProxies?: boolean;
  /** The provider's browser contexts (stored profiles), when it has them. */
  readonly contexts?: BrowserContextStore;
  /**
   * The provider's own extension store, when its browsers load only extensions uploaded to it
   * (Browserbase): an upload to a project is then also uploaded there, and sessions name the
   * provider's id (`SessionExtension.providerExtensionId`). Absent: the provider loads the zip itself.
   */
  readonly extensions?: ProviderExtensionStore;
  /** Starts a browser. Never retried automatically: a retry could start a second billed browser. */
  create(request: CreateBrowserRequest): Promise<ProviderSessionSnapshot>;
  /** The session's current state, or null when the provider no longer knows it. */
  get(providerSessionId: string): Promise<ProviderSessionSnapshot | null>;
  /**
   * Asks the provider to end the session, in the provider project it was started in (the default
   * one when not given); null when the provider no longer knows it.
   */
  release(providerSessionId: string, providerProjectId?: string): Promise<ProviderSessionSnapshot | null>;
  /** Every log entry the provider has for the session, oldest first (unpaged). */
  logs(providerSessionId: string): Promise<SessionLogEntry[]>;
  /**
   * The provider's own live-view URLs for a running session (Browserbase), passed through to
   * clients; null when the provider no longer knows the session. Absent when the provider has none:
   * Browserdeck then serves the live view itself, over CDP (http-api.md §14).
   */
  liveUrls?(providerSessionId: string): Promise<ProviderLiveUrls | null>;
  /**
   * The files the session's browser downloaded, as one zip, streamed; null when the provider no
   * longer has them (unknown session, or past the retention period). Absent: no downloads.
   */
  downloads?(providerSessionId: string): Promise<AsyncIterable<Uint8Array> | null>;
  /**
   * Stores one file where the session's page may take it (`setInputFiles`); null when the provider no
   * longer knows the session. Fails with `payload_too_large` past the provider's size limit.
   */
  upload?(
    providerSessionId: string,
    file: { readonly name: string; readonly content: AsyncIterable<Uint8Array> },
  ): Promise<UploadedSessionFile | null>;
  /**
   * Proxy bytes (in and out) metered for each session since the last call, for providers that meter
   * them themselves (local: at the egress proxy). A provider that reports `proxyBytes` on its
   * snapshots instead (Browserbase) has no such method.
   */
  takeProxyBytes?(): readonly ProxyBytesDelta[];
}
