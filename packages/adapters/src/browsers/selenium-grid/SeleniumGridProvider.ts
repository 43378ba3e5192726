import {
  type CreateBrowserRequest,
  type Logger,
  ProviderError,
  type ProviderSessionSnapshot,
  type ProviderSessions,
  type SessionLogEntry,
  silentLogger,
  TIMEOUT_MIN_SEC,
  UnsupportedOptionError,
} from '@browserdeck/domain';
import type { PassthroughEndpoint } from '../../shared/PassthroughEndpoint.ts';
import type { UpgradeEndpoint } from '../../shared/UpgradeEndpoint.ts';
import { buildProviderConnectUrl } from '../cdp/connectUrl.ts';
import { EndedSessionArchive } from '../cdp/EndedSessionArchive.ts';
import { openInProcessCdpClient } from '../cdp/openInProcessCdpClient.ts';
import { RECORDINGS_SHUTDOWN_WAIT_MS } from '../cdp/recording/Recordings.ts';
import { digestSigningKey, generateSigningKey } from '../cdp/signingKey.ts';
import { WebSocketCdpUpstream } from '../cdp/WebSocketCdpUpstream.ts';
import type { AdapterCapabilities, ComposableBrowserProvider } from '../ProviderCapabilities.ts';
import { buildSeleniumRemoteUrl } from '../webdriver/webdriverPath.ts';
import { GridBrowserSession } from './GridBrowserSession.ts';
import { GridClient, type GridSession } from './GridClient.ts';
import { gridCdpUrl } from './gridCdpUrl.ts';
import { gridEndpoints } from './gridEndpoints.ts';
import { newGridSession } from './newGridSession.ts';
import { newSessionCapabilities } from './newSessionCapabilities.ts';
import { reportGridStatus } from './reportGridStatus.ts';
import { SELENIUM_GRID_DEFAULTS, type SeleniumGridProviderOptions } from './SeleniumGridProviderOptions.ts';
import { toGridProviderError } from './toGridProviderError.ts';

/** The provider's name: the `{provider}` path segment and its connect path's. */
const NAME = 'selenium-grid';

/** Entries are cut to this many JSON bytes, as the local provider's. */
const LOG_ENTRY_MAX_BYTES = 16 * 1024;

/**
 * The `selenium-grid` browser provider (http-api.md §15; docs/adr/0022-selenium-grid-provider.md):
 * each session is a W3C WebDriver session for Chrome with `se:cdpEnabled` on a Selenium Grid 4,
 * created, read and deleted with plain W3C calls (`GridClient`). Clients reach the browser through
 * Browserdeck's signed connect endpoint, which proxies CDP to the session's `se:cdp` under the same
 * command policy as the local provider's (`browsers/cdp/`); the provider keeps its own CDP
 * connection there to record logs, enforces `timeoutSec` and `keepAlive`, and keeps the session
 * alive at the Grid. Those live in this process, so its snapshots carry `instanceId`; deleting a
 * session at the Grid (`release`) works from any instance.
 */
export class SeleniumGridProvider implements ComposableBrowserProvider, ProviderSessions {
  readonly name = NAME;
  readonly regions: readonly string[];
  readonly defaultProviderProjectId = NAME;
  /** Stamped on every session it starts: its proxy, recorder and timers live in this process. */
  readonly instanceId: string;
  /** Sessions' connect endpoint and WebDriver endpoint (`gridEndpoints`), served from the HTTP adapter's table. */
  readonly connectEndpoint: UpgradeEndpoint;
  readonly webdriverEndpoint: PassthroughEndpoint;
  /** Its core is itself (`create`, `get`, `release`, `logs`). */
  readonly sessions: ProviderSessions = this;
  /**
   * Connect WebSockets, the WebDriver endpoint, sessions held until close, in-process CDP (the live
   * view), its placement (this instance), and what it refuses: Grid nodes load no extensions of
   * ours, and reach the network as their node does (no upstream proxies).
   */
  readonly capabilities: AdapterCapabilities;
  private readonly options: SeleniumGridProviderOptions;
  private readonly logger: Logger;
  private readonly grid: GridClient;
  private readonly live = new Map<string, GridBrowserSession>();
  private readonly archive: EndedSessionArchive;
  /** Creates under way and deletions at the Grid, which `close` waits for. */
  private readonly background = new Set<Promise<unknown>>();
  private closed = false;

  constructor(options: SeleniumGridProviderOptions) {
    if (!options.instanceId) throw new RangeError('instanceId is required');
    this.options = options;
    this.logger = options.logger ?? silentLogger;
    this.instanceId = options.instanceId;
    this.regions = options.regions?.length ? options.regions : SELENIUM_GRID_DEFAULTS.regions;
    this.grid = new GridClient({
      gridUrl: options.gridUrl,
      headers: options.headers,
      requestTimeoutMs: options.requestTimeoutMs ?? SELENIUM_GRID_DEFAULTS.requestTimeoutMs,
    });
    this.archive = new EndedSessionArchive({
      maxSessions: options.endedSessionRetention ?? SELENIUM_GRID_DEFAULTS.endedSessionRetention,
      maxWithLogs: options.endedLogRetention ?? SELENIUM_GRID_DEFAULTS.endedLogRetention,
      maxLogBytes: options.endedLogMaxBytes ?? SELENIUM_GRID_DEFAULTS.endedLogMaxBytes,
    });
    const endpoints = gridEndpoints({
      ...{ name: NAME, live: this.live, archive: this.archive, grid: this.grid },
      maxConnectionsPerSession:
        options.maxConnectionsPerSession ?? SELENIUM_GRID_DEFAULTS.maxConnectionsPerSession,
    });
    this.connectEndpoint = endpoints.connect;
    this.webdriverEndpoint = endpoints.webdriver;
    this.capabilities = {
      accepts: { extensions: false, proxies: false },
      placement: { instanceId: this.instanceId, reachesOtherInstances: false },
      upgrades: { endpoints: [this.connectEndpoint] },
      webdriver: { endpoints: [this.webdriverEndpoint] },
      lifecycle: this,
      ...(options.networkCaptures ? { network: options.networkCaptures } : {}),
      ...(options.recordings ? { recording: options.recordings } : {}),
      cdp: {
        open: async (id, deliver, onClose) => {
          const session = this.live.get(id);
          return session ? openInProcessCdpClient(session, deliver, onClose) : null;
        },
      },
    };
  }

  /** Says in the log whether the Grid answers (it is not required to: a Grid may come up later). */
  async start(): Promise<void> {
    await reportGridStatus(
      this.grid,
      this.logger,
      this.options.requestTimeoutMs ?? SELENIUM_GRID_DEFAULTS.requestTimeoutMs,
    );
  }

  async create(request: CreateBrowserRequest): Promise<ProviderSessionSnapshot> {
    const creating = this.createSession(request);
    this.track(creating);
    return creating;
  }

  /**
   * A running session is checked at the Grid first: one the Grid lost ends `ERROR` (nobody asked
   * for it to end). An ended one answers its final state while archived; an unknown one null.
   */
  async get(providerSessionId: string): Promise<ProviderSessionSnapshot | null> {
    const session = this.live.get(providerSessionId);
    if (!session) return this.archive.get(providerSessionId)?.snapshot ?? null;
    try {
      await session.checkAtGrid();
    } catch (error) {
      throw toGridProviderError(error, { operation: 'read a session', now: this.now() });
    }
    return session.snapshot;
  }

  /**
   * Ends a session this process holds (`COMPLETED`) at once: its clients are cut and its WebDriver
   * session deleted in the background (a Grid takes up to ~20 s to stop a driver). One it does not
   * hold (its instance is gone) is deleted at the Grid in the background too, and answers null, as
   * a session the Grid does not know: its state went with the instance that held it.
   */
  async release(providerSessionId: string): Promise<ProviderSessionSnapshot | null> {
    const session = this.live.get(providerSessionId);
    if (session) {
      await session.end('COMPLETED');
      return session.snapshot;
    }
    const archived = this.archive.get(providerSessionId);
    if (archived) return archived.snapshot;
    this.track(
      this.grid.deleteSession(providerSessionId).catch((error: unknown) =>
        this.logger.warn(
          {
            providerSessionId,
            error: toGridProviderError(error, { operation: 'delete a session', now: this.now() }).message,
          },
          'could not delete a Grid session another instance held; the Grid ends it at its own session timeout',
        ),
      ),
    );
    return null;
  }

  async logs(providerSessionId: string): Promise<SessionLogEntry[]> {
    const session = this.live.get(providerSessionId);
    return session ? session.logs() : [...(this.archive.get(providerSessionId)?.logs ?? [])];
  }

  /** Sessions held by this process (running ones, including ones whose WebDriver session is being deleted). */
  get usage(): { sessions: number } {
    return { sessions: this.live.size };
  }

  /** Ends every session it holds (`COMPLETED`), and waits for creates under way and deletions at the Grid. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.live.values()].map((session) => session.end('COMPLETED')));
    while (this.background.size > 0) await Promise.allSettled([...this.background]);
    // The videos of the sessions just ended are made before the host closes the database.
    await this.options.recordings?.idle(RECORDINGS_SHUTDOWN_WAIT_MS);
  }

  private async createSession(request: CreateBrowserRequest): Promise<ProviderSessionSnapshot> {
    if (request.contextId !== null)
      throw new UnsupportedOptionError(
        'contextId',
        'The selenium-grid provider keeps no browser contexts (profiles).',
      );
    this.refuseWhenClosed();
    const capabilities = newSessionCapabilities(request, {
      chromeArgs: this.options.chromeArgs,
      extra: this.options.capabilities,
    });
    const created = await newGridSession(this.grid, capabilities, {
      deadlineMs: this.options.newSessionTimeoutMs ?? SELENIUM_GRID_DEFAULTS.newSessionTimeoutMs,
      track: (work) => this.track(work),
      now: () => this.now(),
    });
    let session: GridBrowserSession;
    try {
      this.refuseWhenClosed();
      session = await this.hold(created, request);
    } catch (error) {
      this.track(this.grid.deleteSession(created.sessionId).catch(() => false));
      throw error;
    }
    if (this.closed) {
      await session.end('COMPLETED');
      this.refuseWhenClosed();
    }
    return session.snapshot;
  }

  /** Starts holding a new Grid session: its signed connect URL, its recorder, deadline and keep-alive. */
  private async hold(created: GridSession, request: CreateBrowserRequest): Promise<GridBrowserSession> {
    const { sessionId } = created;
    const cdpUrl = gridCdpUrl(this.grid.baseUrl, sessionId, created.capabilities['se:cdp']);
    if (!cdpUrl)
      throw new ProviderError(
        'provider_error',
        'The Selenium Grid answered a session without a usable se:cdp endpoint.',
      );
    const key = generateSigningKey();
    const now = this.now();
    const timeoutSec = Math.max(request.timeoutSec, this.options.minTimeoutSec ?? TIMEOUT_MIN_SEC);
    const snapshot: ProviderSessionSnapshot = {
      providerSessionId: sessionId,
      providerProjectId: request.providerProjectId,
      status: 'RUNNING',
      connectUrl: buildProviderConnectUrl(this.options.publicUrl, NAME, sessionId, key),
      seleniumRemoteUrl: buildSeleniumRemoteUrl(this.options.publicUrl, NAME, sessionId, key),
      startedAt: now,
      endedAt: null,
      expiresAt: new Date(now.getTime() + timeoutSec * 1000),
      instanceId: this.instanceId,
    };
    // Recorded unless switched off (SPEC §18).
    const recordings = this.options.recordings?.records(request.record) ? this.options.recordings : undefined;
    const session = GridBrowserSession.open({
      snapshot,
      browserdeckSessionId: request.sessionId,
      capabilities: created.capabilities,
      keyDigest: digestSigningKey(key),
      upstream: new WebSocketCdpUpstream(cdpUrl, { headers: this.grid.headers }),
      keepAlive: request.keepAlive ?? true,
      timeoutSec,
      keepAliveIntervalMs: this.options.keepAliveIntervalMs ?? SELENIUM_GRID_DEFAULTS.keepAliveIntervalMs,
      logLimits: {
        maxEntryBytes: LOG_ENTRY_MAX_BYTES,
        maxBytes: this.options.sessionLogMaxBytes ?? SELENIUM_GRID_DEFAULTS.sessionLogMaxBytes,
      },
      grid: this.grid,
      networkCapture: this.options.networkCaptures?.start(sessionId),
      recordings,
      recordingOwnerId: request.ownerId,
      clock: this.options.clock,
      logger: this.logger,
      onEnded: (ended) => {
        this.live.delete(ended.id);
        this.archive.add(ended.snapshot, ended.keyDigest, ended.boundedLogs());
        this.track(ended.deleted);
      },
    });
    this.live.set(sessionId, session);
    return session;
  }

  private refuseWhenClosed(): void {
    if (this.closed)
      throw new ProviderError('provider_unavailable', 'The selenium-grid provider is shutting down.');
  }

  private track(work: Promise<unknown>): void {
    this.background.add(work);
    const done = () => this.background.delete(work);
    work.then(done, done);
  }

  private now(): Date {
    return this.options.clock.now();
  }
}
