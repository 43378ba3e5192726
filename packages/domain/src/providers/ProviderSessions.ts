import type { SessionLogEntry } from '../sessions/SessionLogEntry.ts';
import type { SessionExtension, SessionProxy, SessionViewport } from '../sessions/sessionOptions.ts';
import type { SessionStatus } from '../sessions/sessionStatus.ts';

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
   * The provider instance holding the browser, when only it can reach it (`placement.instanceId`);
   * absent or null when every instance can.
   */
  readonly instanceId?: string | null;
  /** Proxy bytes in and out so far, when the provider meters them itself (Browserbase's `proxyBytes`). */
  readonly proxyBytes?: number;
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
  /**
   * False: the session is not recorded (SPEC §18). True or null: the provider's default (local and
   * Selenium Grid: `RECORD_SESSIONS`, on unless switched off; Browserbase: its own).
   */
  readonly record: boolean | null;
}

/**
 * The core every provider has: its sessions' browsers. Failures are `ProviderError`s:
 * `provider_rate_limited` (with `retryAfterSec`), `provider_error`, `provider_unavailable`,
 * `provider_timeout`.
 */
export interface ProviderSessions {
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
}
