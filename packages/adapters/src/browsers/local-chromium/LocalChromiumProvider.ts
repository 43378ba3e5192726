import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import {
  type CreateBrowserRequest,
  type Logger,
  ProviderError,
  type ProviderSessionSnapshot,
  type ProviderSessions,
  type SessionLogEntry,
  silentLogger,
  TIMEOUT_MIN_SEC,
} from '@browserdeck/domain';
import type { IsolationLevel } from '../../confinement/isolation/IsolationLevel.ts';
import type { ConnectRefusal } from '../cdp/serveConnectUpgrade.ts';
import type { AdapterCapabilities, ComposableBrowserProvider } from '../ProviderCapabilities.ts';
import { LocalConnect } from './connect/LocalConnect.ts';
import { HOW_TO_LOAD_EXTENSIONS } from './extensions/findExtensionsChromium.ts';
import { LocalSessionFiles } from './files/LocalSessionFiles.ts';
import { RetainedDownloads } from './files/RetainedDownloads.ts';
import { LOCAL_DEFAULTS, type LocalChromiumProviderOptions } from './LocalChromiumProviderOptions.ts';
import { BrowserSupply } from './launch/BrowserSupply.ts';
import type { PreparedBrowser } from './launch/PreparedBrowser.ts';
import { ContextClaim } from './profiles/ContextClaim.ts';
import { ContextLocks } from './profiles/ContextLocks.ts';
import { LocalContextStore } from './profiles/LocalContextStore.ts';
import { extensionsFeature } from './session/features/extensionsFeature.ts';
import { filesFeature } from './session/features/filesFeature.ts';
import { upstreamProxiesFeature } from './session/features/upstreamProxiesFeature.ts';
import { webdriverFeature } from './session/features/webdriverFeature.ts';
import { LocalBrowserSession } from './session/LocalBrowserSession.ts';
import { SessionAdmission } from './session/SessionAdmission.ts';
import { type FeaturePlan, mergePlans, type SessionFeature } from './session/SessionFeature.ts';
import { SessionProxyBytes } from './session/SessionProxyBytes.ts';
import { SessionRegistry } from './session/SessionRegistry.ts';
import { LocalWebDriver } from './webdriver/LocalWebDriver.ts';

/**
 * The `local` browser provider: one headless Chromium per session on this host, confined, limited
 * and behind an egress proxy (`launch/`), reached only through the service's signed WebSocket
 * endpoint and its command allowlist (`connect/`). Admission (`session/admitSession`) counts slots
 * per account; contexts (`profiles/`) are per project. See docs/adr/0003-local-chromium-provider.md,
 * docs/security.md and docs/decisions.md.
 */
export class LocalChromiumProvider implements ComposableBrowserProvider, ProviderSessions {
  readonly name = 'local';
  readonly regions: readonly string[] = ['local'];
  readonly defaultProviderProjectId = 'local';
  /** Stamped on every session it starts: browsers live in this process, out of other instances' reach. */
  readonly instanceId: string;
  /** Sessions' connect endpoint (an upgrade route of the HTTP adapter's table) and in-process CDP. */
  readonly connect: LocalConnect;
  /** Its core is itself (`create`, `get`, `release`, `logs`). */
  readonly sessions: ProviderSessions = this;
  /**
   * Files (downloads, uploads), contexts, proxy metering (at the egress proxy), its placement (this
   * instance), whether it loads extensions (`accepts`: only with a full Chromium for sessions with an
   * extension, `extensionsChromiumPath`, docs/adr/0025), connect WebSockets and in-process CDP
   * (`connect`), browsers held (`start`, `close`), sessions' WebDriver endpoint
   * (`seleniumRemoteUrl`, `webdriver/`).
   */
  readonly capabilities: AdapterCapabilities;
  /** The project's context profiles under `<dataDir>/contexts` (http-api.md §7). */
  readonly contexts: LocalContextStore;
  private readonly options: LocalChromiumProviderOptions;
  private readonly logger: Logger;
  private readonly registry: SessionRegistry;
  private readonly contextLocks = new ContextLocks();
  private readonly admission: SessionAdmission;
  private readonly browsers: BrowserSupply;
  /** Sessions' WebDriver side: whether a chromedriver matches the browser, and their chromedrivers. */
  private readonly webdriver: LocalWebDriver;
  /** Ended sessions' downloads, kept for `downloadsRetentionSec` under `<dataDir>/downloads`. */
  private readonly retained: RetainedDownloads;
  /** What sessions add to the core, in the order they are prepared (`SessionFeature`). */
  private readonly features: readonly SessionFeature[];
  /** Creates under way, which `close` waits for (a browser they launch is stopped as they see it closed). */
  private readonly creating = new Set<Promise<unknown>>();
  private closed = false;
  /** The process exits without `close`: browsers die with it, and their temporary profiles go. */
  private readonly killAllNow = (): void => {
    for (const session of this.registry.all()) session.browser.process.killNow();
    this.browsers.killAllNow();
  };

  constructor(options: LocalChromiumProviderOptions) {
    if (!Number.isInteger(options.maxSessions) || options.maxSessions < 1)
      throw new RangeError('maxSessions must be a positive integer');
    this.options = options;
    this.logger = options.logger ?? silentLogger;
    this.instanceId = options.instanceId ?? randomUUID();
    this.retained = new RetainedDownloads({
      dataDir: options.dataDir,
      retentionSec: options.downloadsRetentionSec,
      maxBytes: options.downloadsMaxBytes,
      maxBytesPerOwner: options.downloadsMaxBytesPerOwner,
      clock: options.clock,
      logger: this.logger,
    });
    this.contexts = new LocalContextStore({
      dataDir: options.dataDir,
      locks: this.contextLocks,
      maxPerProject: options.maxContextsPerProject ?? LOCAL_DEFAULTS.maxContextsPerProject,
    });
    this.registry = new SessionRegistry({
      maxSessions: options.endedSessionRetention ?? LOCAL_DEFAULTS.endedSessionRetention,
      maxWithLogs: options.endedLogRetention ?? LOCAL_DEFAULTS.endedLogRetention,
      maxLogBytes: options.endedLogMaxBytes ?? LOCAL_DEFAULTS.endedLogMaxBytes,
    });
    this.browsers = new BrowserSupply(
      options,
      this.logger,
      () => options.maxSessions - this.registry.size - this.admission.reserved,
    );
    this.connect = new LocalConnect({
      registry: this.registry,
      publicUrl: options.publicUrl,
      maxConnectionsPerSession: options.maxConnectionsPerSession ?? LOCAL_DEFAULTS.maxConnectionsPerSession,
    });
    this.admission = new SessionAdmission({
      ...{ maxSessions: options.maxSessions, maxSessionsPerOwner: options.maxSessionsPerOwner },
      registry: this.registry,
      warm: () => this.browsers.warm,
      clock: options.clock,
    });
    const { extensionsBuild } = this.browsers;
    this.webdriver = new LocalWebDriver({
      browserBuild: () => this.browsers.browserBuild(),
      chromedriver: {
        chromedriverPath: options.chromedriverPath,
        env: options.chromiumSearch?.env,
        chromedriverPaths: options.chromiumSearch?.chromedriverPaths,
      },
      logger: this.logger,
      lookup: (id) => this.registry.connectLookup(id),
    });
    const proxyBytes = new SessionProxyBytes(() => this.registry.all());
    this.features = [
      extensionsFeature(extensionsBuild),
      upstreamProxiesFeature({
        egress: this.browsers.egress,
        onEnded: (ended) => proxyBytes.keepFinal(ended),
      }),
      filesFeature(this.retained),
      webdriverFeature({ webdriver: this.webdriver, browsers: this.browsers, extensionsBuild }),
    ];
    this.capabilities = {
      files: new LocalSessionFiles({ registry: this.registry, retained: this.retained }),
      contexts: this.contexts,
      proxyMetering: proxyBytes,
      placement: { instanceId: this.instanceId, reachesOtherInstances: false },
      accepts: {
        extensions: extensionsBuild.available,
        extensionsHint: extensionsBuild.available ? undefined : HOW_TO_LOAD_EXTENSIONS,
        proxies: true,
      },
      upgrades: { endpoints: [this.connect.endpoint] },
      lifecycle: this,
      cdp: { open: (id, deliver, onClose) => this.connect.openCdp(id, deliver, onClose) },
      webdriver: { endpoints: [this.webdriver.endpoint] },
    };
    // Browsers run in their own process groups: make sure they die with this process.
    process.on('exit', this.killAllNow);
  }

  /** Sets up confinement and limits (throwing when no isolation level can be), fills the warm pool. */
  async start(): Promise<void> {
    await this.browsers.start();
    this.retained.start();
    // Said at start-up: whether sessions get a seleniumRemoteUrl, and if not what to install.
    await this.webdriver.chromedriver().catch(() => null);
  }

  /** Resolves when no warm browser is launching (benchmarks and tests). */
  warmPoolSettled(): Promise<void> {
    return this.browsers.settled();
  }

  /** Live sessions (including ones whose browser is still stopping) and warm browsers. */
  get usage(): { sessions: number; warm: number } {
    return { sessions: this.registry.size, warm: this.browsers.warm };
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
    // In order, before any slot, browser or context is taken: a refusal holds nothing.
    const plans: FeaturePlan[] = [];
    for (const feature of this.features) plans.push(await feature.prepare(request));
    const plan = mergePlans(plans);
    const claim = ContextClaim.of(request, this.options.dataDir, this.contextLocks);
    await this.browsers.ready();
    const admission = this.admission.admit(request, claim, plan.warmFits);
    let opened = false;
    try {
      const browser = await this.browsers.acquire(
        admission,
        claim,
        request.viewport,
        plan.extension,
        plan.routes,
      );
      if (this.closed) {
        await browser.dispose();
        throw new ProviderError('provider_unavailable', 'The local provider is shutting down.');
      }
      const session = this.open(browser, request, plans, plan);
      this.registry.add(session, claim);
      opened = true;
      return session.snapshot;
    } finally {
      this.admission.settle(request, claim, opened);
      this.browsers.refill();
    }
  }

  async get(providerSessionId: string): Promise<ProviderSessionSnapshot | null> {
    return this.registry.snapshot(providerSessionId);
  }

  async release(providerSessionId: string): Promise<ProviderSessionSnapshot | null> {
    const session = this.registry.running(providerSessionId);
    if (!session) return this.registry.snapshot(providerSessionId);
    await session.end('COMPLETED');
    return session.snapshot;
  }

  async logs(providerSessionId: string): Promise<SessionLogEntry[]> {
    return this.registry.logs(providerSessionId);
  }

  /** A running session's browser, for diagnostics and tests: its process group leader's pid and folders. */
  inspect(providerSessionId: string): { pid: number; profileDir: string; downloadsDir: string } | null {
    const browser = this.registry.running(providerSessionId)?.browser;
    return browser
      ? { pid: browser.process.pid, profileDir: browser.profileDir, downloadsDir: browser.downloadsDir }
      : null;
  }

  /** The isolation level browsers run with (setting it up on first use). */
  async isolationLevel(): Promise<IsolationLevel> {
    return this.browsers.isolationLevel();
  }

  /** Serves a session's `connectUrl` on a server without the HTTP adapter (`LocalConnect.handleUpgrade`). */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean | ConnectRefusal {
    return this.connect.handleUpgrade(req, socket, head);
  }

  /** Ends every session (COMPLETED), stops the warm pool, waits for creates, removes what is left. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([this.browsers.closePool(), ...this.registry.all().map((s) => s.end('COMPLETED'))]);
    await Promise.allSettled([...this.creating]);
    await this.browsers.finish();
    await this.retained.stop();
    process.off('exit', this.killAllNow);
  }

  private open(
    browser: PreparedBrowser,
    request: CreateBrowserRequest,
    plans: readonly FeaturePlan[],
    plan: ReturnType<typeof mergePlans>,
  ) {
    const session = LocalBrowserSession.start({
      browser,
      request,
      instanceId: this.instanceId,
      publicUrl: this.options.publicUrl,
      webdriver: plan.webdriver,
      clock: this.options.clock,
      timeoutSec: Math.max(request.timeoutSec, this.options.minTimeoutSec ?? TIMEOUT_MIN_SEC),
      // A session that reads as ended frees its account's share at once; its browser counts against
      // the provider's total until it is gone.
      onEnding: (ending) => this.admission.free(ending.ownerId),
      holdDownloads: plan.holdDownloads,
      onEnded: (ended) => {
        for (const plan of plans) plan.ended?.(ended);
        this.registry.retire(ended);
        this.browsers.refill();
      },
    });
    for (const plan of plans) plan.open?.(session);
    return session;
  }
}
