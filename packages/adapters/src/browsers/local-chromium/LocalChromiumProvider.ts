import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { networkInterfaces, tmpdir, totalmem } from 'node:os';
import { dirname } from 'node:path';
import type { Duplex } from 'node:stream';
import {
  type CreateBrowserRequest,
  type Logger,
  ProviderError,
  type ProviderSessionSnapshot,
  SESSION_LOG_DEFAULT_BUDGET_BYTES,
  SESSION_LOG_ENTRY_MAX_BYTES,
  type SessionLogEntry,
  type SessionViewport,
  silentLogger,
  TIMEOUT_MIN_SEC,
} from '@browserdeck/domain';
import type { CdpBrowserMessage } from '../cdp/cdpMessages.ts';
import type {
  CdpCapabilityConnection,
  ComposableBrowserProvider,
  ProviderCapabilities,
} from '../ProviderCapabilities.ts';
import { openInProcessCdpClient } from './cdp/openInProcessCdpClient.ts';
import { ChromiumLocator } from './chromium/ChromiumLocator.ts';
import { type ConnectRefusal, serveConnectUpgrade } from './connect/serveConnectUpgrade.ts';
import { EgressPolicy } from './egress/EgressPolicy.ts';
import { BrowserConfinement, type IsolationLevel } from './isolation/BrowserConfinement.ts';
import type { LocalChromiumProviderOptions } from './LocalChromiumProviderOptions.ts';
import { PreparedBrowser, type ProfileChoice } from './launch/PreparedBrowser.ts';
import { WarmPool } from './launch/WarmPool.ts';
import { BrowserLimits } from './limits/BrowserLimits.ts';
import { type ResourceLimits, resolveResourceLimits } from './limits/ResourceLimits.ts';
import { ContextLocks, contextKey } from './profiles/ContextLocks.ts';
import { contextProfileDir } from './profiles/contextProfileDir.ts';
import { LocalContextStore } from './profiles/LocalContextStore.ts';
import { TemporaryProfiles } from './profiles/TemporaryProfiles.ts';
import { type AdmissionRefusal, admitSession } from './session/admitSession.ts';
import { capacityError } from './session/capacityError.ts';
import { EndedSessionArchive } from './session/EndedSessionArchive.ts';
import { LocalBrowserSession } from './session/LocalBrowserSession.ts';

/** Clients connected to one session at once by default: a driver, a few tools and reconnects. */
const DEFAULT_MAX_CONNECTIONS_PER_SESSION = 8;
/** Context profiles one project holds by default. */
const DEFAULT_MAX_CONTEXTS_PER_PROJECT = 100;
/** The logs of ended sessions kept together by default (JSON bytes). */
const ENDED_LOGS_DEFAULT_MAX_BYTES = 64 * 1024 * 1024;

/**
 * The `local` browser provider: one headless Chromium per session on this host, confined (an
 * unprivileged user, Chromium's sandbox, a filesystem view of its own profile: `BrowserConfinement`),
 * with all its traffic through an egress proxy (`EgressProxy`) and DevTools over a pipe, reached only
 * through the service's own signed WebSocket endpoint (`handleUpgrade`) and its command allowlist.
 * Contexts are per project, and slots per account (the projects' owner). A context (`contexts`) is a persistent profile folder: a session
 * that saves to it (`contextPersist`) holds it alone; one that does not runs on a temporary copy, and
 * holds it only while the copy is made. A session without `keepAlive` ends once its last client has
 * been disconnected for `DISCONNECT_GRACE_MS`; one with a `viewport` gets a browser launched with that
 * window size (never a warm one, whose window has Chromium's default size). See
 * docs/adr/0003-local-chromium-provider.md, docs/security.md and docs/decisions.md (Contexts;
 * keepAlive and viewport).
 */
export class LocalChromiumProvider implements ComposableBrowserProvider {
  readonly name = 'local';
  readonly regions: readonly string[] = ['local'];
  readonly defaultProviderProjectId = 'local';
  /** Extensions are not supported yet: a create naming one is refused (`unsupported_option`). */
  readonly loadsExtensions = false;
  /** Stamped on every session it starts: browsers live in this process, out of other instances' reach. */
  readonly instanceId: string;
  /**
   * It serves connect WebSockets (`handleUpgrade`), holds browsers (`start`, `close`) and opens
   * in-process CDP clients on its running sessions (`openCdp`, for the live view).
   */
  readonly capabilities: ProviderCapabilities = {
    upgrades: this,
    lifecycle: this,
    cdp: { open: (id, deliver, onClose) => this.openCdp(id, deliver, onClose) },
  };
  /** The project's context profiles under `<dataDir>/contexts` (http-api.md §7). */
  readonly contexts: LocalContextStore;
  private readonly options: LocalChromiumProviderOptions;
  private readonly logger: Logger;
  private readonly live = new Map<string, LocalBrowserSession>();
  private readonly contextLocks = new ContextLocks();
  /** The context each running session that saves to one holds, by session id. */
  private readonly heldContexts = new Map<string, string>();
  /** Slots per account (project owner): running sessions plus creates in progress. */
  private readonly ownerSlots = new Map<string, number>();
  private readonly maxPerOwner: number;
  private readonly egress: EgressPolicy;
  private confinement: Promise<BrowserConfinement> | null = null;
  /** Per-browser memory, task, CPU and disk limits (`limits/`), set up on first use. */
  private readonly resourceLimits: ResourceLimits;
  private limits: Promise<BrowserLimits> | null = null;
  private limitsInForce: BrowserLimits | null = null;
  private readonly archive: EndedSessionArchive;
  private readonly pool: WarmPool;
  private readonly locator: ChromiumLocator;
  private readonly profiles: TemporaryProfiles;
  /** Creates under way, which `close` waits for (a browser they launch is stopped as they see it closed). */
  private readonly creating = new Set<Promise<unknown>>();
  private reserved = 0;
  private closed = false;
  /** The process exits without `close`: browsers die with it, and their temporary profiles go. */
  private readonly killAllNow = (): void => {
    for (const session of this.live.values()) session.browser.process.killNow();
    for (const browser of this.pool.readyBrowsers()) browser.process.killNow();
    // Stragglers in the browsers' cgroups, and their disks detached before the profiles go.
    this.limitsInForce?.releaseAllSync();
    this.profiles.removeAllSync();
  };

  constructor(options: LocalChromiumProviderOptions) {
    if (!Number.isInteger(options.maxSessions) || options.maxSessions < 1)
      throw new RangeError('maxSessions must be a positive integer');
    if (!Number.isInteger(options.warmBrowsers) || options.warmBrowsers < 0)
      throw new RangeError('warmBrowsers must be a non-negative integer');
    const perOwner = options.maxSessionsPerOwner ?? Math.max(1, Math.floor(options.maxSessions / 2));
    if (!Number.isInteger(perOwner) || perOwner < 1)
      throw new RangeError('maxSessionsPerOwner must be a positive integer');
    this.maxPerOwner = perOwner;
    this.options = options;
    this.logger = options.logger ?? silentLogger;
    this.resourceLimits = resolveResourceLimits(
      {
        memoryMb: options.browserMemoryMb,
        pids: options.browserPids,
        diskMb: options.sessionDiskMb,
        cpuWeight: options.browserCpuWeight,
      },
      { totalMemoryBytes: totalmem(), maxSessions: options.maxSessions },
    );
    this.instanceId = options.instanceId ?? randomUUID();
    this.profiles = new TemporaryProfiles(options.tempDir ?? tmpdir(), this.logger);
    this.contexts = new LocalContextStore({
      dataDir: options.dataDir,
      locks: this.contextLocks,
      maxPerProject: options.maxContextsPerProject ?? DEFAULT_MAX_CONTEXTS_PER_PROJECT,
    });
    this.egress = new EgressPolicy({ ...options.egress, ownAddresses: ownAddresses() });
    this.locator = new ChromiumLocator(
      { ...options.chromiumSearch, chromiumPath: options.chromiumPath },
      this.logger,
    );
    this.archive = new EndedSessionArchive({
      maxSessions: options.endedSessionRetention ?? 1000,
      maxWithLogs: options.endedLogRetention ?? 100,
      maxLogBytes: options.endedLogMaxBytes ?? ENDED_LOGS_DEFAULT_MAX_BYTES,
    });
    this.pool = new WarmPool({
      launch: () => this.launch({ kind: 'temporary', profiles: this.profiles }),
      min: options.warmBrowsers,
      max: options.maxSessions,
      freeSlots: () =>
        this.closed || !this.locator.searched
          ? 0
          : options.maxSessions - this.live.size - this.reserved - this.pool.size,
      logger: this.logger,
    });
    // Browsers run in their own process groups: make sure they die with this process.
    process.on('exit', this.killAllNow);
  }

  /**
   * Sets up the browsers' confinement (throwing, with what is missing, when no level can be set up:
   * the provider never runs browsers unconfined unless told `isolation: 'off'`), finds the browser
   * and fills the warm pool; a missing browser is logged, not thrown.
   */
  async start(): Promise<void> {
    const confinement = await this.confine();
    this.logger.info?.(
      {
        isolation: confinement.level,
        browserUser: confinement.user?.name ?? null,
        egress: this.egress.describe(),
      },
      `local provider: browsers run with isolation level ${confinement.level}`,
    );
    const limits = await this.browserLimits();
    this.logger.info?.({ limits: limits.describe() }, 'local provider: per-browser resource limits');
    if (limits.notInForce.length > 0)
      this.logger.warn(
        { notInForce: limits.notInForce },
        `local provider: browsers run WITHOUT these limits: ${limits.notInForce.map((p) => `${p.limit} (${p.reason})`).join('; ')}`,
      );
    try {
      await this.locator.locate();
    } catch (error) {
      this.logger.warn({ err: error }, 'local provider: no Chromium; sessions cannot start');
      return;
    }
    this.pool.refill();
    await this.pool.settled();
  }

  /** Resolves when no warm browser is launching (benchmarks and tests). */
  async warmPoolSettled(): Promise<void> {
    await this.pool.settled();
  }

  /** Live sessions (including ones whose browser is still stopping) and warm browsers. */
  get usage(): { sessions: number; warm: number } {
    return { sessions: this.live.size, warm: this.pool.size };
  }

  async create(request: CreateBrowserRequest): Promise<ProviderSessionSnapshot> {
    const creating = this.createSession(request);
    this.creating.add(creating);
    creating.then(
      () => this.creating.delete(creating),
      () => this.creating.delete(creating),
    );
    return creating;
  }

  private async createSession(request: CreateBrowserRequest): Promise<ProviderSessionSnapshot> {
    if (this.closed) throw new ProviderError('provider_unavailable', 'The local provider is shutting down.');
    const { contextId, projectId, ownerId, contextPersist: persist } = request;
    const contextDir =
      contextId === null ? null : contextProfileDir(this.options.dataDir, projectId, contextId);
    const key = contextId === null ? null : contextKey(projectId, contextId);
    await this.confine();
    await this.locator.locate();
    const held = this.ownerSlots.get(ownerId) ?? 0;
    // Warm browsers have Chromium's default window and a fresh profile: a session asking for a
    // viewport or a context launches its own.
    const admission = admitSession(
      {
        maxSessions: this.options.maxSessions,
        sessions: this.live.size + this.reserved,
        warm: this.pool.size,
        maxPerOwner: this.maxPerOwner,
        ownerHeld: held,
      },
      {
        warmFits: contextDir === null && request.viewport === null,
        contextFree: key === null ? null : this.contextLocks.canTake(key, persist),
      },
    );
    if (!admission.admitted) throw this.refusal(admission.refusal, request);
    if (key !== null) persist ? this.contextLocks.takeExclusive(key) : this.contextLocks.takeForCopy(key);
    this.reserved++;
    this.ownerSlots.set(ownerId, held + 1);
    let opened = false;
    try {
      let browser = admission.browser === 'warm' ? await this.pool.take() : null;
      if (browser) browser.recorder.clear();
      else {
        if (admission.evictWarm) this.pool.evictOne();
        browser = await this.launch(
          contextDir === null
            ? { kind: 'temporary', profiles: this.profiles }
            : persist
              ? { kind: 'persistent', dir: contextDir }
              : { kind: 'copy', profiles: this.profiles, from: contextDir },
          request.viewport,
        );
      }
      if (this.closed) {
        await browser.dispose();
        throw new ProviderError('provider_unavailable', 'The local provider is shutting down.');
      }
      const session = this.open(browser, request);
      opened = true;
      if (key !== null && persist) this.heldContexts.set(session.id, key);
      return session.snapshot;
    } catch (error) {
      if (key !== null && persist) this.contextLocks.releaseExclusive(key);
      throw error;
    } finally {
      // The copy is made (or failed) by now: the context is free for others again.
      if (key !== null && !persist) this.contextLocks.releaseCopy(key);
      if (!opened) this.freeOwnerSlot(ownerId);
      this.reserved--;
      this.pool.refill();
    }
  }

  /** The provider error for a refused admission, with `Retry-After` from the soonest deadline that frees a slot. */
  private refusal(refusal: AdmissionRefusal, request: CreateBrowserRequest): ProviderError {
    const now = this.options.clock.now();
    const live = [...this.live.values()];
    if (refusal === 'capacity')
      return capacityError(
        `The local provider is running its maximum of ${this.options.maxSessions} sessions`,
        live.map((s) => s.snapshot.expiresAt),
        now,
      );
    if (refusal === 'owner_share')
      return capacityError(
        `This account is running its fair share of ${this.maxPerOwner} local sessions across its projects (LOCAL_MAX_SESSIONS_PER_OWNER)`,
        live.filter((s) => s.ownerId === request.ownerId).map((s) => s.snapshot.expiresAt),
        now,
      );
    const message = `Context ${request.contextId} is in use by another session of this project, or being deleted.`;
    return new ProviderError('provider_rate_limited', message, { retryAfterSec: 5 });
  }

  async get(providerSessionId: string): Promise<ProviderSessionSnapshot | null> {
    return (
      this.live.get(providerSessionId)?.snapshot ?? this.archive.get(providerSessionId)?.snapshot ?? null
    );
  }

  async release(providerSessionId: string): Promise<ProviderSessionSnapshot | null> {
    const session = this.live.get(providerSessionId);
    if (!session) return this.archive.get(providerSessionId)?.snapshot ?? null;
    await session.end('COMPLETED');
    return session.snapshot;
  }

  async logs(providerSessionId: string): Promise<SessionLogEntry[]> {
    const session = this.live.get(providerSessionId);
    if (session) return session.logs();
    return [...(this.archive.get(providerSessionId)?.logs ?? [])];
  }

  /**
   * Where a running session's browser lives, for diagnostics and tests: the pid of its confinement
   * (the leader of its process group), its profile and its downloads folder. Null when not running.
   */
  inspect(providerSessionId: string): { pid: number; profileDir: string; downloadsDir: string } | null {
    const browser = this.live.get(providerSessionId)?.browser;
    return browser
      ? { pid: browser.process.pid, profileDir: browser.profileDir, downloadsDir: browser.downloadsDir }
      : null;
  }

  /** The isolation level browsers run with (setting it up on first use). */
  async isolationLevel(): Promise<IsolationLevel> {
    return (await this.confine()).level;
  }

  /**
   * Serves a session's `connectUrl`: attach to the HTTP server's `upgrade` event. True when the
   * WebSocket is proxied to the session's browser (until the session ends); a `ConnectRefusal` for
   * the host to answer (`refuseUpgrade`) when the session is unknown, the key missing or wrong, or
   * the session ended; false when the request is not for a connect endpoint at all.
   */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean | ConnectRefusal {
    return serveConnectUpgrade(
      req,
      socket,
      head,
      this.options.publicUrl,
      (id) => {
        const running = this.live.get(id);
        const keyDigest = running?.keyDigest ?? this.archive.get(id)?.keyDigest;
        return keyDigest ? { keyDigest, running: running ?? null } : null;
      },
      this.options.maxConnectionsPerSession ?? DEFAULT_MAX_CONNECTIONS_PER_SESSION,
    );
  }

  /**
   * An in-process CDP client on a running session's browser (`openInProcessCdpClient`: the connect
   * proxy's command policy, not counted as a connected client, closed when the session ends); null
   * when no such session runs here.
   */
  openCdp(
    providerSessionId: string,
    deliver: (message: CdpBrowserMessage) => void,
    onClose: () => void,
  ): Promise<CdpCapabilityConnection | null> {
    const session = this.live.get(providerSessionId);
    return session ? openInProcessCdpClient(session, deliver, onClose) : Promise.resolve(null);
  }

  /**
   * Stops every browser (sessions end as COMPLETED), empties the warm pool, waits for creates under
   * way, and removes every temporary profile left.
   */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([this.pool.close(), ...[...this.live.values()].map((s) => s.end('COMPLETED'))]);
    await Promise.allSettled([...this.creating]);
    await this.profiles.removeAll();
    await (await this.limits?.catch(() => null))?.close();
    process.off('exit', this.killAllNow);
  }

  private open(browser: PreparedBrowser, request: CreateBrowserRequest): LocalBrowserSession {
    const session = LocalBrowserSession.start({
      browser,
      request,
      instanceId: this.instanceId,
      publicUrl: this.options.publicUrl,
      clock: this.options.clock,
      timeoutSec: Math.max(request.timeoutSec, this.options.minTimeoutSec ?? TIMEOUT_MIN_SEC),
      // A session that reads as ended no longer holds its account's share, so an account can start
      // its next session as soon as it sees the last one end; the browser counts against the
      // provider's total until it is gone.
      onEnding: (ending) => this.freeOwnerSlot(ending.ownerId),
      onEnded: (ended) => this.retire(ended),
    });
    this.live.set(session.id, session);
    return session;
  }

  private retire(session: LocalBrowserSession): void {
    this.live.delete(session.id);
    const key = this.heldContexts.get(session.id);
    if (key !== undefined) {
      this.heldContexts.delete(session.id);
      this.contextLocks.releaseExclusive(key);
    }
    this.archive.add(session.snapshot, session.keyDigest, session.boundedLogs());
    this.pool.refill();
  }

  private freeOwnerSlot(ownerId: string): void {
    const held = (this.ownerSlots.get(ownerId) ?? 1) - 1;
    if (held > 0) this.ownerSlots.set(ownerId, held);
    else this.ownerSlots.delete(ownerId);
  }

  private confine(): Promise<BrowserConfinement> {
    this.confinement ??= BrowserConfinement.setUp({
      setting: this.options.isolation ?? 'on',
      browserUser: this.options.browserUser,
      hiddenPaths: [this.options.dataDir, ...(this.options.hiddenPaths ?? serviceFolders())],
      logger: this.logger,
    }).catch((error: unknown) => {
      this.confinement = null;
      throw new ProviderError('provider_unavailable', (error as Error).message, { cause: error });
    });
    return this.confinement;
  }

  private browserLimits(): Promise<BrowserLimits> {
    this.limits ??= BrowserLimits.setUp({ limits: this.resourceLimits, logger: this.logger }).then(
      (limits) => {
        this.limitsInForce = limits;
        return limits;
      },
    );
    return this.limits;
  }

  private async launch(
    profile: ProfileChoice,
    windowSize: SessionViewport | null = null,
  ): Promise<PreparedBrowser> {
    const [confinement, found, limits] = await Promise.all([
      this.confine(),
      this.locator.locate(),
      this.browserLimits(),
    ]);
    return PreparedBrowser.launch({
      limits,
      staging: this.profiles,
      executablePath: found.path,
      profile,
      confinement,
      egress: this.egress,
      clock: this.options.clock,
      logLimits: {
        maxEntryBytes: SESSION_LOG_ENTRY_MAX_BYTES,
        maxBytes: this.options.sessionLogMaxBytes ?? SESSION_LOG_DEFAULT_BUDGET_BYTES,
      },
      windowSize,
    });
  }
}

/** The service's own folders: where it runs from and where its main module lives. */
function serviceFolders(): string[] {
  const main = process.argv[1];
  return main ? [process.cwd(), dirname(main)] : [process.cwd()];
}

/** This host's own addresses, which browsers may never reach (the service listens on some of them). */
function ownAddresses(): string[] {
  return Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((i) => i.address));
}
