import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import {
  type CreateBrowserRequest,
  type Logger,
  ProviderError,
  type ProviderSessionSnapshot,
  type SessionLogEntry,
  silentLogger,
  TIMEOUT_MIN_SEC,
} from '@browserdeck/domain';
import type { IsolationLevel } from '../../confinement/isolation/IsolationLevel.ts';
import { matchUpgradeEndpoint } from '../../shared/matchUpgradeEndpoint.ts';
import type { UpgradeEndpoint } from '../../shared/UpgradeEndpoint.ts';
import type { CdpBrowserMessage } from '../cdp/cdpMessages.ts';
import { openInProcessCdpClient } from '../cdp/openInProcessCdpClient.ts';
import { type ConnectRefusal, serveConnectUpgrade } from '../cdp/serveConnectUpgrade.ts';
import type {
  CdpCapabilityConnection,
  ComposableBrowserProvider,
  ProviderCapabilities,
} from '../ProviderCapabilities.ts';
import { CONNECT_PATH_TEMPLATE } from './connect/connectPath.ts';
import { LOCAL_DEFAULTS, type LocalChromiumProviderOptions } from './LocalChromiumProviderOptions.ts';
import { BrowserSupply } from './launch/BrowserSupply.ts';
import type { PreparedBrowser } from './launch/PreparedBrowser.ts';
import { ContextClaim } from './profiles/ContextClaim.ts';
import { ContextLocks } from './profiles/ContextLocks.ts';
import { LocalContextStore } from './profiles/LocalContextStore.ts';
import { admissionError } from './session/admissionError.ts';
import { admitSession } from './session/admitSession.ts';
import { LocalBrowserSession } from './session/LocalBrowserSession.ts';
import { OwnerSlots } from './session/OwnerSlots.ts';
import { SessionRegistry } from './session/SessionRegistry.ts';
import { LocalWebDriver } from './webdriver/LocalWebDriver.ts';

/**
 * The `local` browser provider: one headless Chromium per session on this host, confined, limited
 * and behind an egress proxy (`launch/`), reached only through the service's signed WebSocket
 * endpoint and its command allowlist (`connect/`). Admission (`session/admitSession`) counts slots
 * per account; contexts (`profiles/`) are per project. See docs/adr/0003-local-chromium-provider.md,
 * docs/security.md and docs/decisions.md.
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
   * Sessions' connect endpoint, served from the HTTP adapter's route table (an upgrade route), on
   * the API's own server.
   */
  readonly connectEndpoint: UpgradeEndpoint = {
    path: CONNECT_PATH_TEMPLATE,
    operationId: 'connectLocalSession',
    summary: 'Connect a CDP client to a local session’s browser (WebSocket)',
    serve: (request) =>
      serveConnectUpgrade(
        request,
        (id) => this.sessions.connectLookup(id),
        this.options.maxConnectionsPerSession ?? LOCAL_DEFAULTS.maxConnectionsPerSession,
      ),
  };
  /**
   * Connect WebSockets (`connectEndpoint`), browsers held (`start`, `close`), in-process CDP
   * (`openCdp`), sessions' WebDriver endpoint (`seleniumRemoteUrl`, `webdriver/`).
   */
  readonly capabilities: ProviderCapabilities;
  /** The project's context profiles under `<dataDir>/contexts` (http-api.md §7). */
  readonly contexts: LocalContextStore;
  private readonly options: LocalChromiumProviderOptions;
  private readonly logger: Logger;
  private readonly sessions: SessionRegistry;
  private readonly contextLocks = new ContextLocks();
  private readonly slots: OwnerSlots;
  private readonly browsers: BrowserSupply;
  /** Sessions' WebDriver side: whether a chromedriver matches the browser, and their chromedrivers. */
  private readonly webdriver: LocalWebDriver;
  /** Creates under way, which `close` waits for (a browser they launch is stopped as they see it closed). */
  private readonly creating = new Set<Promise<unknown>>();
  private closed = false;
  /** The process exits without `close`: browsers die with it, and their temporary profiles go. */
  private readonly killAllNow = (): void => {
    for (const session of this.sessions.all()) session.browser.process.killNow();
    this.browsers.killAllNow();
  };

  constructor(options: LocalChromiumProviderOptions) {
    if (!Number.isInteger(options.maxSessions) || options.maxSessions < 1)
      throw new RangeError('maxSessions must be a positive integer');
    this.slots = new OwnerSlots(
      options.maxSessionsPerOwner ?? Math.max(1, Math.floor(options.maxSessions / 2)),
    );
    this.options = options;
    this.logger = options.logger ?? silentLogger;
    this.instanceId = options.instanceId ?? randomUUID();
    this.contexts = new LocalContextStore({
      dataDir: options.dataDir,
      locks: this.contextLocks,
      maxPerProject: options.maxContextsPerProject ?? LOCAL_DEFAULTS.maxContextsPerProject,
    });
    this.sessions = new SessionRegistry({
      maxSessions: options.endedSessionRetention ?? LOCAL_DEFAULTS.endedSessionRetention,
      maxWithLogs: options.endedLogRetention ?? LOCAL_DEFAULTS.endedLogRetention,
      maxLogBytes: options.endedLogMaxBytes ?? LOCAL_DEFAULTS.endedLogMaxBytes,
    });
    this.browsers = new BrowserSupply(
      options,
      this.logger,
      () => options.maxSessions - this.sessions.size - this.slots.reserved,
    );
    this.webdriver = new LocalWebDriver({
      browserBuild: () => this.browsers.browserBuild(),
      chromedriver: {
        chromedriverPath: options.chromedriverPath,
        env: options.chromiumSearch?.env,
        chromedriverPaths: options.chromiumSearch?.chromedriverPaths,
      },
      logger: this.logger,
      lookup: (id) => this.sessions.connectLookup(id),
    });
    this.capabilities = {
      upgrades: { endpoints: [this.connectEndpoint] },
      lifecycle: this,
      cdp: { open: (id, deliver, onClose) => this.openCdp(id, deliver, onClose) },
      webdriver: { endpoints: [this.webdriver.endpoint] },
    };
    // Browsers run in their own process groups: make sure they die with this process.
    process.on('exit', this.killAllNow);
  }

  /** Sets up confinement and limits (throwing when no isolation level can be), fills the warm pool. */
  async start(): Promise<void> {
    await this.browsers.start();
    // Said at start-up: whether sessions get a seleniumRemoteUrl, and if not what to install.
    await this.webdriver.chromedriver().catch(() => null);
  }

  /** Resolves when no warm browser is launching (benchmarks and tests). */
  warmPoolSettled(): Promise<void> {
    return this.browsers.settled();
  }

  /** Live sessions (including ones whose browser is still stopping) and warm browsers. */
  get usage(): { sessions: number; warm: number } {
    return { sessions: this.sessions.size, warm: this.browsers.warm };
  }

  async create(request: CreateBrowserRequest): Promise<ProviderSessionSnapshot> {
    const creating = this.createSession(request);
    this.creating.add(creating);
    const done = () => this.creating.delete(creating);
    creating.then(done, done);
    return creating;
  }

  private async createSession(request: CreateBrowserRequest): Promise<ProviderSessionSnapshot> {
    if (this.closed) throw new ProviderError('provider_unavailable', 'The local provider is shutting down.');
    const { ownerId } = request;
    const claim = ContextClaim.of(request, this.options.dataDir, this.contextLocks);
    await this.browsers.ready();
    const webdriver = (await this.webdriver.chromedriver()) !== null;
    const admission = admitSession(
      {
        maxSessions: this.options.maxSessions,
        sessions: this.sessions.size + this.slots.reserved,
        warm: this.browsers.warm,
        maxPerOwner: this.slots.maxPerOwner,
        ownerHeld: this.slots.held(ownerId),
      },
      // Warm browsers have Chromium's default window and a fresh profile.
      { warmFits: claim === null && request.viewport === null, contextFree: claim?.free ?? null },
    );
    if (!admission.admitted)
      throw admissionError(admission.refusal, {
        maxSessions: this.options.maxSessions,
        maxPerOwner: this.slots.maxPerOwner,
        contextId: request.contextId,
        expiries: this.sessions.expiries(),
        ownerExpiries: this.sessions.expiries(ownerId),
        now: this.options.clock.now(),
      });
    claim?.take();
    this.slots.reserve(ownerId);
    let opened = false;
    try {
      const browser = await this.browsers.acquire(admission, claim, request.viewport);
      if (this.closed) {
        await browser.dispose();
        throw new ProviderError('provider_unavailable', 'The local provider is shutting down.');
      }
      const session = this.open(browser, request, webdriver);
      this.sessions.add(session, claim);
      opened = true;
      return session.snapshot;
    } finally {
      claim?.settle(opened);
      this.slots.settle(ownerId, opened);
      this.browsers.refill();
    }
  }

  async get(providerSessionId: string): Promise<ProviderSessionSnapshot | null> {
    return this.sessions.snapshot(providerSessionId);
  }

  async release(providerSessionId: string): Promise<ProviderSessionSnapshot | null> {
    const session = this.sessions.running(providerSessionId);
    if (!session) return this.sessions.snapshot(providerSessionId);
    await session.end('COMPLETED');
    return session.snapshot;
  }

  async logs(providerSessionId: string): Promise<SessionLogEntry[]> {
    return this.sessions.logs(providerSessionId);
  }

  /** A running session's browser, for diagnostics and tests: its process group leader's pid and folders. */
  inspect(providerSessionId: string): { pid: number; profileDir: string; downloadsDir: string } | null {
    const browser = this.sessions.running(providerSessionId)?.browser;
    return browser
      ? { pid: browser.process.pid, profileDir: browser.profileDir, downloadsDir: browser.downloadsDir }
      : null;
  }

  /** The isolation level browsers run with (setting it up on first use). */
  async isolationLevel(): Promise<IsolationLevel> {
    return this.browsers.isolationLevel();
  }

  /**
   * Serves a session's `connectUrl` on a server without the HTTP adapter (the HTTP adapter serves
   * `connectEndpoint` from its route table): true when proxied, a `ConnectRefusal` for the host to
   * answer, false when the request is not a connect at all.
   */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean | ConnectRefusal {
    const mountPrefix = new URL(this.options.publicUrl).pathname.replace(/\/+$/, '');
    const match = matchUpgradeEndpoint([this.connectEndpoint], req.url, mountPrefix);
    if (!match) return false;
    return match.endpoint.serve({ req, socket, head, params: match.params, query: match.query, mountPrefix });
  }

  /** An in-process CDP client on a running session's browser (`openInProcessCdpClient`); null when none runs here. */
  openCdp(
    providerSessionId: string,
    deliver: (message: CdpBrowserMessage) => void,
    onClose: () => void,
  ): Promise<CdpCapabilityConnection | null> {
    const session = this.sessions.running(providerSessionId);
    return session ? openInProcessCdpClient(session, deliver, onClose) : Promise.resolve(null);
  }

  /** Ends every session (COMPLETED), stops the warm pool, waits for creates, removes what is left. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([this.browsers.closePool(), ...this.sessions.all().map((s) => s.end('COMPLETED'))]);
    await Promise.allSettled([...this.creating]);
    await this.browsers.finish();
    process.off('exit', this.killAllNow);
  }

  private open(
    browser: PreparedBrowser,
    request: CreateBrowserRequest,
    webdriver: boolean,
  ): LocalBrowserSession {
    return LocalBrowserSession.start({
      browser,
      request,
      instanceId: this.instanceId,
      publicUrl: this.options.publicUrl,
      webdriver,
      clock: this.options.clock,
      timeoutSec: Math.max(request.timeoutSec, this.options.minTimeoutSec ?? TIMEOUT_MIN_SEC),
      // A session that reads as ended frees its account's share at once; its browser counts against
      // the provider's total until it is gone.
      onEnding: (ending) => this.slots.free(ending.ownerId),
      onEnded: (ended) => {
        this.sessions.retire(ended);
        this.browsers.refill();
      },
    });
  }
}
