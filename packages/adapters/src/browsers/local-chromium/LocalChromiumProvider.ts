import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import {
  type BrowserContextStore,
  type CreateBrowserRequest,
  type Logger,
  type ProviderSessionSnapshot,
  type ProviderSessions,
  type SessionLogEntry,
  silentLogger,
} from '@browserdeck/domain';
import type { IsolationLevel } from '../../confinement/isolation/IsolationLevel.ts';
import { readHostResources } from '../../confinement/limits/hostResources.ts';
import { RECORDINGS_SHUTDOWN_WAIT_MS, type Recordings } from '../cdp/recording/Recordings.ts';
import type { ConnectRefusal } from '../cdp/serveConnectUpgrade.ts';
import type { AdapterCapabilities, ComposableBrowserProvider } from '../ProviderCapabilities.ts';
import type { LocalConnect } from './connect/LocalConnect.ts';
import { HOW_TO_LOAD_EXTENSIONS } from './extensions/findExtensionsChromium.ts';
import { LocalSessionFiles } from './files/LocalSessionFiles.ts';
import type { LocalChromiumProviderOptions, SizedLocalOptions } from './LocalChromiumProviderOptions.ts';
import { type LocalProviderParts, localProviderParts } from './localProviderParts.ts';
import {
  describeSessionCapacity,
  resolveSessionCapacity,
  type SessionCapacity,
} from './session/SessionCapacity.ts';
import { SessionStarter } from './session/SessionStarter.ts';

/**
 * The `local` browser provider: one headless Chromium per session on this host, confined, limited
 * and behind an egress proxy (`launch/`), reached only through the service's signed WebSocket
 * endpoint and its command allowlist (`connect/`). Admission (`session/admitSession`) counts slots
 * per account; contexts (`profiles/`) are per project; a session starts as a pipeline of session
 * features (`session/SessionStarter`, `session/features/`). Its parts are built in
 * `localProviderParts`. See docs/adr/0003-local-chromium-provider.md, docs/adr/0031, docs/security.md.
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
  /** The projects' contexts (http-api.md §7): shared through the database, or under `<dataDir>/contexts`. */
  readonly contexts: BrowserContextStore;
  /** Sessions at once and per account, sized to the host unless configured (`resolveSessionCapacity`). */
  readonly capacity: SessionCapacity;
  private readonly parts: LocalProviderParts;
  private readonly recordings: Recordings | undefined;
  private readonly logger: Logger;
  private readonly starter: SessionStarter;
  /** Creates under way, which `close` waits for (a browser they launch is stopped as they see it closed). */
  private readonly creating = new Set<Promise<unknown>>();
  private closed = false;
  /** The process exits without `close`: browsers die with it, and their temporary profiles go. */
  private readonly killAllNow = (): void => {
    for (const session of this.parts.registry.all()) session.browser.process.killNow();
    this.parts.browsers.killAllNow();
  };

  constructor(given: LocalChromiumProviderOptions) {
    const hostResources = given.hostResources ?? readHostResources();
    // Throws a RangeError for a count that is not a positive integer, or a share above the maximum.
    this.capacity = resolveSessionCapacity(given, hostResources);
    const { maxSessions, maxSessionsPerOwner } = this.capacity;
    const options: SizedLocalOptions = { ...given, maxSessions, maxSessionsPerOwner, hostResources };
    const logger: Logger = options.logger ?? silentLogger;
    this.logger = logger;
    this.instanceId = options.instanceId ?? randomUUID();
    const parts = localProviderParts(options, logger, this.instanceId);
    this.parts = parts;
    this.recordings = options.recordings;
    this.connect = parts.connect;
    this.contexts = parts.contexts;
    this.starter = new SessionStarter({
      parts,
      options,
      instanceId: this.instanceId,
      isClosed: () => this.closed,
    });
    const { extensionsBuild } = parts.browsers;
    this.capabilities = {
      files: new LocalSessionFiles({ registry: parts.registry, retained: parts.retained }),
      contexts: parts.contexts,
      ...(options.networkCaptures ? { network: options.networkCaptures } : {}),
      ...(options.recordings ? { recording: options.recordings } : {}),
      proxyMetering: parts.proxyBytes,
      placement: { instanceId: this.instanceId, reachesOtherInstances: false },
      accepts: {
        extensions: extensionsBuild.available,
        extensionsHint: extensionsBuild.available ? undefined : HOW_TO_LOAD_EXTENSIONS,
        proxies: true,
      },
      upgrades: { endpoints: [parts.connect.endpoint] },
      lifecycle: this,
      cdp: { open: (id, deliver, onClose) => parts.connect.openCdp(id, deliver, onClose) },
      webdriver: { endpoints: [parts.webdriver.endpoint] },
    };
    // Browsers run in their own process groups: make sure they die with this process.
    process.on('exit', this.killAllNow);
  }

  /** Sets up confinement and limits (throwing when no isolation level can be), fills the warm pool. */
  async start(): Promise<void> {
    const line = describeSessionCapacity(this.capacity);
    if (this.capacity.perOwnerLowered === null) this.logger.info?.({ capacity: this.capacity }, line);
    else this.logger.warn({ capacity: this.capacity }, line);
    await this.parts.sharedContexts?.start();
    await this.parts.browsers.start();
    this.parts.retained.start();
    // Said at start-up: whether sessions get a seleniumRemoteUrl, and if not what to install.
    await this.parts.webdriver.chromedriver().catch(() => null);
  }

  /** Resolves when no warm browser is launching (benchmarks and tests). */
  warmPoolSettled(): Promise<void> {
    return this.parts.browsers.settled();
  }

  /** Live sessions (including ones whose browser is still stopping) and warm browsers. */
  get usage(): { sessions: number; warm: number } {
    return { sessions: this.parts.registry.size, warm: this.parts.browsers.warm };
  }

  async create(request: CreateBrowserRequest): Promise<ProviderSessionSnapshot> {
    const creating = this.starter.start(request).then((session) => session.snapshot);
    this.creating.add(creating);
    const done = () => this.creating.delete(creating);
    creating.then(done, done);
    return creating;
  }

  async get(providerSessionId: string): Promise<ProviderSessionSnapshot | null> {
    return this.parts.registry.snapshot(providerSessionId);
  }

  async release(providerSessionId: string): Promise<ProviderSessionSnapshot | null> {
    const session = this.parts.registry.running(providerSessionId);
    if (!session) return this.parts.registry.snapshot(providerSessionId);
    await session.end('COMPLETED');
    // A context the session saved to is stored (and free on every instance) once the release answers.
    await this.parts.registry.claimReleased(providerSessionId);
    // Its account's slot is free on every instance once the release answers.
    await this.parts.share.settled();
    return session.snapshot;
  }

  async logs(providerSessionId: string): Promise<SessionLogEntry[]> {
    return this.parts.registry.logs(providerSessionId);
  }

  /** A running session's browser, for diagnostics and tests: its process group leader's pid and folders. */
  inspect(providerSessionId: string): { pid: number; profileDir: string; downloadsDir: string } | null {
    const browser = this.parts.registry.running(providerSessionId)?.browser;
    return browser
      ? { pid: browser.process.pid, profileDir: browser.profileDir, downloadsDir: browser.downloadsDir }
      : null;
  }

  /** The isolation level browsers run with (setting it up on first use). */
  async isolationLevel(): Promise<IsolationLevel> {
    return this.parts.browsers.isolationLevel();
  }

  /** Serves a session's `connectUrl` on a server without the HTTP adapter (`LocalConnect.handleUpgrade`). */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean | ConnectRefusal {
    return this.connect.handleUpgrade(req, socket, head);
  }

  /** Ends every session (COMPLETED), stops the warm pool, waits for creates, removes what is left. */
  async close(): Promise<void> {
    this.closed = true;
    const { browsers, registry, retained } = this.parts;
    await Promise.all([browsers.closePool(), ...registry.all().map((s) => s.end('COMPLETED'))]);
    await Promise.allSettled([...this.creating]);
    // Profiles of contexts the sessions saved to are stored before the host closes the database.
    await registry.claimsReleased();
    // The ended sessions' slots are freed before the host closes the database.
    await this.parts.share.settled();
    await browsers.finish();
    await retained.stop();
    // The videos of the sessions just ended are made before the host closes the database.
    await this.recordings?.idle(RECORDINGS_SHUTDOWN_WAIT_MS);
    process.off('exit', this.killAllNow);
  }
}
