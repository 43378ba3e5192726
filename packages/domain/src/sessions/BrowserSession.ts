import { MASKED_SECRET, maskedUrl, maskedValues } from '../access/secretMasking.ts';
import type { ProviderSessionSnapshot } from '../providers/ProviderSessions.ts';
import type { EntityState } from '../shared/EntityState.ts';
import { writable } from '../shared/writable.ts';
import type { SessionProxy, SessionViewport } from './sessionOptions.ts';
import { isTerminalStatus, nextSessionStatus, type SessionStatus } from './sessionStatus.ts';

/** The settings a session runs with, after agent defaults and request overrides are merged. */
export interface SessionSettings {
  readonly name: string;
  readonly script: string;
  readonly env: Record<string, string>;
  readonly region: string;
  readonly timeoutSec: number;
  readonly extensionId: string | null;
  readonly contextId: string | null;
  readonly agentId: string | null;
  /** The client's own JSON object, stored as given and filterable (`MetadataFilter`); `{}` when absent. */
  readonly metadata?: Record<string, unknown>;
  /** False: the session ends when its last client disconnects. True (the default) when absent. */
  readonly keepAlive?: boolean | null;
  /** The browser's window size the client asked for; null (the provider's default) when absent. */
  readonly viewport?: SessionViewport | null;
  /** Upstream proxies for the session's traffic; null (direct) when absent. Credentials are secrets. */
  readonly proxies?: readonly SessionProxy[] | null;
}

/** The fields of a session that change after it was created (status, URLs, times). */
export type SessionAnswer = Pick<
  BrowserSession,
  'status' | 'connectUrl' | 'seleniumRemoteUrl' | 'updatedAt' | 'endedAt' | 'expiresAt' | 'lastSyncedAt'
>;

/** A session's stored fields (not the derived getters): what `BrowserSession.restore` takes. */
export type BrowserSessionState = EntityState<BrowserSession, 'answer' | 'isActive' | 'endOfLife'>;

/** A cloud-browser session tracked by the service. Terminal statuses are final. */
export class BrowserSession implements SessionSettings {
  readonly id!: string;
  readonly projectId!: string;
  /** The provider's name (`local`, `browserbase`). */
  readonly provider!: string;
  readonly providerSessionId!: string;
  readonly providerProjectId!: string;
  /**
   * The provider instance that holds the browser, when only that one server instance can reach it
   * (the local provider's `instanceId`); null when every instance can (Browserbase).
   */
  readonly providerInstanceId!: string | null;
  readonly status!: SessionStatus;
  readonly connectUrl!: string;
  readonly seleniumRemoteUrl!: string | null;
  readonly createdAt!: Date;
  readonly updatedAt!: Date;
  readonly startedAt!: Date;
  readonly endedAt!: Date | null;
  readonly expiresAt!: Date | null;
  readonly lastSyncedAt!: Date;
  readonly name!: string;
  readonly script!: string;
  readonly env!: Record<string, string>;
  readonly region!: string;
  readonly timeoutSec!: number;
  readonly extensionId!: string | null;
  readonly contextId!: string | null;
  readonly agentId!: string | null;
  /**
   * The client's own JSON object, set at create and never changed: Browserbase's `userMetadata`
   * (http-api.md §13), which lists filter on. Not §5's `userMetadata` (the script and env).
   */
  readonly metadata!: Record<string, unknown>;
  /**
   * False: the provider ends the session (`COMPLETED`) once its last client disconnects, as
   * Browserbase does without `keepAlive`. True: it lives until released or timed out.
   */
  readonly keepAlive!: boolean;
  /** The window size the session was created with; null when the provider's default applies. */
  readonly viewport!: SessionViewport | null;
  /**
   * The upstream proxies the session was created with (http-api.md §5); null: direct. They hold
   * credentials: stored sealed like `env`, and never returned nor logged.
   */
  readonly proxies!: readonly SessionProxy[] | null;
  /**
   * Proxy bytes in and out so far (Browserbase's `proxyBytes`): added up by the store as the
   * provider meters them (`SessionRepository.addProxyBytes`), or taken from the provider's own count
   * (`applyProviderSnapshot`). Never goes down.
   */
  readonly proxyBytes!: number;

  private constructor() {}

  /** A session the provider has just started. */
  static create(props: {
    id: string;
    projectId: string;
    provider: string;
    settings: SessionSettings;
    snapshot: ProviderSessionSnapshot;
    now: Date;
  }): BrowserSession {
    const { snapshot, settings } = props;
    return Object.assign(new BrowserSession(), {
      id: props.id,
      projectId: props.projectId,
      provider: props.provider,
      ...settings,
      env: { ...settings.env },
      metadata: { ...settings.metadata },
      keepAlive: settings.keepAlive ?? true,
      viewport: settings.viewport ? { ...settings.viewport } : null,
      proxies: settings.proxies?.length ? settings.proxies.map((proxy) => copyProxy(proxy)) : null,
      proxyBytes: snapshot.proxyBytes ?? 0,
      providerSessionId: snapshot.providerSessionId,
      providerProjectId: snapshot.providerProjectId,
      providerInstanceId: snapshot.instanceId ?? null,
      status: snapshot.status,
      connectUrl: snapshot.connectUrl,
      seleniumRemoteUrl: snapshot.seleniumRemoteUrl,
      startedAt: snapshot.startedAt,
      endedAt: snapshot.endedAt,
      expiresAt: snapshot.expiresAt,
      createdAt: props.now,
      updatedAt: props.now,
      lastSyncedAt: props.now,
    });
  }

  /**
   * For repositories: the session `state` holds, as it was stored. No validation (a stored row was
   * valid when written); `state`'s fields become the instance's.
   */
  static restore(state: BrowserSessionState): BrowserSession {
    return Object.assign(new BrowserSession(), state);
  }

  /** What of this session can still change, as it is now (`asAnswered` puts it back). */
  get answer(): SessionAnswer {
    return {
      status: this.status,
      connectUrl: this.connectUrl,
      seleniumRemoteUrl: this.seleniumRemoteUrl,
      updatedAt: this.updatedAt,
      endedAt: this.endedAt,
      expiresAt: this.expiresAt,
      lastSyncedAt: this.lastSyncedAt,
    };
  }

  /** A copy of this session as it was when `answer` was taken: what an `Idempotency-Key` replay shows. */
  asAnswered(answer: SessionAnswer): BrowserSession {
    return BrowserSession.restore({ ...this, ...answer });
  }

  /**
   * This session as a viewer reads it (SPEC §17): `env` values, the connect URLs' signing key and
   * the upstream proxies' passwords masked. A copy; this session is unchanged.
   */
  masked(): BrowserSession {
    return BrowserSession.restore({
      ...this,
      env: maskedValues(this.env),
      connectUrl: maskedUrl(this.connectUrl),
      seleniumRemoteUrl: this.seleniumRemoteUrl === null ? null : maskedUrl(this.seleniumRemoteUrl),
      proxies: this.proxies?.map((proxy) => maskedProxy(proxy)) ?? null,
    });
  }

  /** True while the session is `PENDING` or `RUNNING`. */
  get isActive(): boolean {
    return !isTerminalStatus(this.status);
  }

  /**
   * Takes in what the provider reports. A terminal session keeps its status and end time; only
   * `lastSyncedAt` moves. Returns whether anything a client can see changed.
   */
  applyProviderSnapshot(snapshot: ProviderSessionSnapshot, now: Date): boolean {
    const self = writable(this);
    self.lastSyncedAt = now;
    if (isTerminalStatus(this.status)) return false;
    const status = nextSessionStatus(this.status, snapshot.status);
    const endedAt = isTerminalStatus(status) ? (snapshot.endedAt ?? now) : null;
    const proxyBytes = Math.max(this.proxyBytes, snapshot.proxyBytes ?? 0);
    const changed =
      proxyBytes !== this.proxyBytes ||
      status !== this.status ||
      snapshot.connectUrl !== this.connectUrl ||
      snapshot.seleniumRemoteUrl !== this.seleniumRemoteUrl ||
      endedAt?.getTime() !== this.endedAt?.getTime() ||
      snapshot.expiresAt?.getTime() !== this.expiresAt?.getTime();
    if (!changed) return false;
    self.status = status;
    self.connectUrl = snapshot.connectUrl;
    self.seleniumRemoteUrl = snapshot.seleniumRemoteUrl;
    self.endedAt = endedAt;
    self.expiresAt = snapshot.expiresAt;
    self.proxyBytes = proxyBytes;
    self.updatedAt = now;
    return true;
  }

  /** The provider no longer knows the session: it is over. */
  markGone(now: Date): boolean {
    writable(this).lastSyncedAt = now;
    if (isTerminalStatus(this.status)) return false;
    this.end('COMPLETED', now);
    return true;
  }

  /** When the session ends at the latest: its `expiresAt`, else `startedAt + timeoutSec`. */
  get endOfLife(): Date {
    return this.expiresAt ?? new Date(this.startedAt.getTime() + this.timeoutSec * 1000);
  }

  /**
   * Ends an active session past its end of life that only another instance could ask about: its
   * browser cannot have outlived `endOfLife` (the provider stops browsers at their timeout), so it
   * is `TIMED_OUT`, ended then. Returns whether it changed.
   */
  expire(now: Date): boolean {
    writable(this).lastSyncedAt = now;
    if (isTerminalStatus(this.status)) return false;
    this.end('TIMED_OUT', this.endOfLife);
    writable(this).updatedAt = now;
    return true;
  }

  /** Ends an active session with a terminal status (release → `COMPLETED`). No-op when already ended. */
  end(status: 'COMPLETED' | 'ERROR' | 'TIMED_OUT', now: Date): void {
    if (isTerminalStatus(this.status)) return;
    const self = writable(this);
    self.status = status;
    self.endedAt = now;
    self.updatedAt = now;
  }
}

/** A copy of one proxy entry, its geolocation included: the session keeps its own. */
function maskedProxy(proxy: SessionProxy): SessionProxy {
  return proxy.type === 'external' && proxy.password !== undefined
    ? { ...proxy, password: MASKED_SECRET }
    : copyProxy(proxy);
}

function copyProxy(proxy: SessionProxy): SessionProxy {
  return proxy.type === 'browserbase' && proxy.geolocation
    ? { ...proxy, geolocation: { ...proxy.geolocation } }
    : { ...proxy };
}
