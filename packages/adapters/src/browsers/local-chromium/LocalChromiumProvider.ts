import { randomUUID } from 'node:crypto';
import { promises as dns } from 'node:dns';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import {
  type CreateBrowserRequest,
  type FilesCapability,
  type Logger,
  ProviderError,
  type ProviderSessionSnapshot,
  type ProviderSessions,
  type ProxyBytesDelta,
  type SessionLogEntry,
  silentLogger,
  TIMEOUT_MIN_SEC,
  type UploadedSessionFile,
} from '@browserdeck/domain';
import type { IsolationLevel } from '../../confinement/isolation/IsolationLevel.ts';
import { matchUpgradeEndpoint } from '../../shared/matchUpgradeEndpoint.ts';
import type { UpgradeEndpoint } from '../../shared/UpgradeEndpoint.ts';
import type { CdpBrowserMessage } from '../cdp/cdpMessages.ts';
import { openInProcessCdpClient } from '../cdp/openInProcessCdpClient.ts';
import { type ConnectRefusal, serveConnectUpgrade } from '../cdp/serveConnectUpgrade.ts';
import { checkUpstreamProxies } from '../egress/checkUpstreamProxies.ts';
import { ownEndpointOf } from '../egress/ownEndpointOf.ts';
import type { UpstreamRoute } from '../egress/UpstreamRoute.ts';
import type {
  AdapterCapabilities,
  CdpCapabilityConnection,
  ComposableBrowserProvider,
} from '../ProviderCapabilities.ts';
import { majorVersion } from './chromium/majorVersion.ts';
import { CONNECT_PATH_TEMPLATE } from './connect/connectPath.ts';
import { HOW_TO_LOAD_EXTENSIONS } from './extensions/findExtensionsChromium.ts';
import { RetainedDownloads } from './files/RetainedDownloads.ts';
import { storeUpload } from './files/storeUpload.ts';
import { zipDownloads } from './files/zipDownloads.ts';
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

/** Ended sessions whose final proxy bytes are kept for `takeProxyBytes` when nobody takes them. */
const MAX_UNTAKEN_ENDED_SESSIONS = 10_000;

/**
 * The `local` browser provider: one headless Chromium per session on this host, confined, limited
 * and behind an egress proxy (`launch/`), reached only through the service's signed WebSocket
 * endpoint and its command allowlist (`connect/`). Admission (`session/admitSession`) counts slots
 * per account; contexts (`profiles/`) are per project. See docs/adr/0003-local-chromium-provider.md,
 * docs/security.md and docs/decisions.md.
 */
export class LocalChromiumProvider implements ComposableBrowserProvider, ProviderSessions, FilesCapability {
  readonly name = 'local';
  readonly regions: readonly string[] = ['local'];
  readonly defaultProviderProjectId = 'local';
  /**
   * True when this host has a full Chromium for sessions with an extension (`extensionsChromiumPath`;
   * docs/adr/0025); without one a create naming an extension is refused (`unsupported_option`).
   */
  readonly loadsExtensions: boolean;
  /** What to install or set when `loadsExtensions` is false. */
  readonly extensionsHint: string | undefined;
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
        (id) => this.registry.connectLookup(id),
        this.options.maxConnectionsPerSession ?? LOCAL_DEFAULTS.maxConnectionsPerSession,
      ),
  };
  /** Its core is itself (`create`, `get`, `release`, `logs`). */
  readonly sessions: ProviderSessions = this;
  /**
   * Files (downloads, uploads), contexts, proxy metering (at the egress proxy), its placement (this
   * instance), whether it loads extensions (`accepts`), connect WebSockets (`connectEndpoint`),
   * browsers held (`start`, `close`), in-process CDP (`openCdp`), sessions' WebDriver endpoint
   * (`seleniumRemoteUrl`, `webdriver/`).
   */
  readonly capabilities: AdapterCapabilities;
  /** The project's context profiles under `<dataDir>/contexts` (http-api.md §7). */
  readonly contexts: LocalContextStore;
  private readonly options: LocalChromiumProviderOptions;
  private readonly logger: Logger;
  private readonly registry: SessionRegistry;
  private readonly contextLocks = new ContextLocks();
  private readonly slots: OwnerSlots;
  private readonly browsers: BrowserSupply;
  /** Sessions' WebDriver side: whether a chromedriver matches the browser, and their chromedrivers. */
  private readonly webdriver: LocalWebDriver;
  /** Ended sessions' downloads, kept for `downloadsRetentionSec` under `<dataDir>/downloads`. */
  private readonly retained: RetainedDownloads;
  /**
   * Proxy bytes of ended sessions not yet taken (`takeProxyBytes`): their final count, reported once.
   * Bounded, in case nobody takes them.
   */
  private readonly endedProxyBytes = new Map<string, number>();
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
    this.slots = new OwnerSlots(
      options.maxSessionsPerOwner ?? Math.max(1, Math.floor(options.maxSessions / 2)),
    );
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
      () => options.maxSessions - this.registry.size - this.slots.reserved,
    );
    this.loadsExtensions = this.browsers.extensionsBuild.available;
    this.extensionsHint = this.loadsExtensions ? undefined : HOW_TO_LOAD_EXTENSIONS;
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
    this.capabilities = {
      files: this,
      contexts: this.contexts,
      proxyMetering: { take: () => this.takeProxyBytes() },
      placement: { instanceId: this.instanceId, reachesOtherInstances: false },
      accepts: { extensions: this.loadsExtensions, extensionsHint: this.extensionsHint, proxies: true },
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
    const { ownerId, extension } = request;
    // Before any slot is taken: a session with an extension needs the full build (and runs it cold).
    const extensionsBuild = extension ? await this.browsers.extensionsBuild.locate() : null;
    // Upstream proxies are checked (and their addresses pinned) before any slot or browser is taken.
    const routes = await checkUpstreamProxies(request.proxies, this.browsers.egress, (host) =>
      dns.lookup(host, { all: true }),
    );
    const claim = ContextClaim.of(request, this.options.dataDir, this.contextLocks);
    await this.browsers.ready();
    // chromedriver is paired with the main build: it serves an extension session's build only when
    // that has the same major version.
    const webdriver =
      (await this.webdriver.chromedriver()) !== null &&
      (extensionsBuild === null ||
        sameMajorVersion(extensionsBuild.version, (await this.browsers.browserBuild()).version));
    const admission = admitSession(
      {
        maxSessions: this.options.maxSessions,
        sessions: this.registry.size + this.slots.reserved,
        warm: this.browsers.warm,
        maxPerOwner: this.slots.maxPerOwner,
        ownerHeld: this.slots.held(ownerId),
      },
      // Warm browsers have Chromium's default window, a fresh profile and no extension.
      {
        warmFits: claim === null && request.viewport === null && extension === null,
        contextFree: claim?.free ?? null,
      },
    );
    if (!admission.admitted)
      throw admissionError(admission.refusal, {
        maxSessions: this.options.maxSessions,
        maxPerOwner: this.slots.maxPerOwner,
        contextId: request.contextId,
        expiries: this.registry.expiries(),
        ownerExpiries: this.registry.expiries(ownerId),
        now: this.options.clock.now(),
      });
    claim?.take();
    this.slots.reserve(ownerId);
    let opened = false;
    try {
      // A cold browser talks through the session's upstreams from launch (its extension starts then).
      const browser = await this.browsers.acquire(admission, claim, request.viewport, extension, routes);
      if (this.closed) {
        await browser.dispose();
        throw new ProviderError('provider_unavailable', 'The local provider is shutting down.');
      }
      const session = this.open(browser, request, webdriver, routes);
      this.registry.add(session, claim);
      opened = true;
      return session.snapshot;
    } finally {
      claim?.settle(opened);
      this.slots.settle(ownerId, opened);
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

  /**
   * Proxy bytes (in and out, at each browser's egress proxy: what went to and came from the network
   * or the session's upstream proxies) per session since the last call, for the sessions that had
   * any. Open connections count as they go; a session that ended since the last call is reported
   * once more with its final bytes, then forgotten. Bytes a warm browser used before its session
   * are not the session's. Tunnels to the session's own connect endpoint are not counted.
   */
  takeProxyBytes(): ProxyBytesDelta[] {
    const bytes = new Map(this.endedProxyBytes);
    this.endedProxyBytes.clear();
    for (const session of this.registry.all()) {
      const taken = session.browser.takeProxyBytes();
      if (taken > 0) bytes.set(session.id, (bytes.get(session.id) ?? 0) + taken);
    }
    return [...bytes].map(([providerSessionId, count]) => ({ providerSessionId, bytes: count }));
  }

  /**
   * The session's completed downloads as a zip (`zipDownloads`): from its browser's Downloads folder
   * while it runs, then from the copy kept for `downloadsRetentionSec` after it ended (a read while
   * it ends waits for that copy). Null for a session unknown here or past the retention.
   */
  async downloads(providerSessionId: string): Promise<AsyncIterable<Uint8Array> | null> {
    const running = this.registry.running(providerSessionId);
    if (running && !running.ended) return zipDownloads(running.browser.downloadsDir);
    return this.retained.archive(providerSessionId);
  }

  /**
   * Stores a file in the running session's uploads folder (`<profile>/Uploads`, `storeUpload`), whose
   * files its file inputs may take; bounded by the session's disk (`sessionDiskMb`). Null once the
   * session has ended or when it is unknown here.
   */
  async upload(
    providerSessionId: string,
    file: { readonly name: string; readonly content: AsyncIterable<Uint8Array> },
  ): Promise<UploadedSessionFile | null> {
    const running = this.registry.running(providerSessionId);
    if (!running || running.ended) return null;
    const { browser } = running;
    return storeUpload({
      uploadsDir: browser.uploadsDir,
      name: file.name,
      content: file.content,
      owner: browser.fileOwner,
    });
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
    const session = this.registry.running(providerSessionId);
    return session ? openInProcessCdpClient(session, deliver, onClose) : Promise.resolve(null);
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
    webdriver: boolean,
    routes: readonly UpstreamRoute[],
  ): LocalBrowserSession {
    const session = LocalBrowserSession.start({
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
      holdDownloads: (id) => this.retained.hold(id, request.ownerId),
      onEnded: (ended) => {
        this.keepFinalProxyBytes(ended);
        this.registry.retire(ended);
        this.browsers.refill();
      },
    });
    // Before any client can connect: the session's upstreams (a warm browser's; a cold one has had
    // them since launch), and its own connect endpoint open to its browser (Stagehand 4's extension
    // connects back to it from inside, once a client has handed it the connectUrl).
    browser.useSessionEgress({ routes, ownEndpoint: ownEndpointOf(session.snapshot.connectUrl) });
    return session;
  }

  /** An ended session's last bytes (its proxy has closed), kept until `takeProxyBytes` reports them. */
  private keepFinalProxyBytes(ended: LocalBrowserSession): void {
    const bytes = ended.browser.takeProxyBytes();
    if (bytes === 0) return;
    if (this.endedProxyBytes.size >= MAX_UNTAKEN_ENDED_SESSIONS) {
      const oldest = this.endedProxyBytes.keys().next().value;
      if (oldest !== undefined) this.endedProxyBytes.delete(oldest);
    }
    this.endedProxyBytes.set(ended.id, (this.endedProxyBytes.get(ended.id) ?? 0) + bytes);
  }
}

/** True when two `--version` lines name the same major version. */
function sameMajorVersion(a: string | null, b: string | null): boolean {
  const major = majorVersion(a);
  return major !== null && major === majorVersion(b);
}
