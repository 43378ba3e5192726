import { randomUUID } from 'node:crypto';
import type { Duplex } from 'node:stream';
import type {
  Clock,
  CreateBrowserRequest,
  ProviderSessionSnapshot,
  SessionLogEntry,
  SessionStatus,
} from '@browserdeck/domain';
import type { CdpUpstream } from '../../cdp/CdpConnection.ts';
import type { SessionFolders } from '../../cdp/cdpCommandPolicy.ts';
import type { BoundedLogs } from '../../cdp/logs/SessionLogBuffer.ts';
import type { GoingAway } from '../../cdp/proxyCdpConnection.ts';
import { SessionClients } from '../../cdp/SessionClients.ts';
import { digestSigningKey, generateSigningKey } from '../../cdp/signingKey.ts';
import { buildSeleniumRemoteUrl } from '../../webdriver/webdriverPath.ts';
import { buildConnectUrl } from '../connect/connectPath.ts';
import type { PreparedBrowser } from '../launch/PreparedBrowser.ts';

export { DISCONNECT_GRACE_MS } from '../../cdp/SessionClients.ts';

const ENDED_REASON = 'The browser session has ended.';

/**
 * Starts keeping a session's downloads past its end (`RetainedDownloads.hold`): answers the function
 * its ending hands the Downloads folder to (null: nothing to keep), once its browser has stopped.
 */
export type HoldDownloads = (providerSessionId: string) => (downloadsDir: string | null) => Promise<void>;

/** A terminal status the local provider gives a session. */
export type LocalEndStatus = Extract<SessionStatus, 'COMPLETED' | 'ERROR' | 'TIMED_OUT'>;

/**
 * One running local session: its browser, its connect-key digest, its open proxied connections and
 * its deadline. `end` is idempotent: the first terminal status wins, every connection is cut, the
 * browser is stopped and a temporary profile removed. A browser exit we did not ask for is `ERROR`,
 * unless it was a clean exit (code 0: a client sent `Browser.close`), which is `COMPLETED`. Without
 * `keepAlive`, the session ends `COMPLETED` once its last client has been gone for
 * `DISCONNECT_GRACE_MS` (Browserbase's behaviour); a session no client ever connected to waits for
 * its release or its timeout.
 */
export class LocalBrowserSession {
  readonly id: string;
  /** Our session id (`CreateBrowserRequest.sessionId`): WebDriver commands may name the session by it. */
  readonly browserdeckSessionId: string;
  readonly keyDigest: Buffer;
  /** Our project id: contexts are per project. */
  readonly projectId: string;
  /** The account the session counts against (the project's owner): slots are per account. */
  readonly ownerId: string;
  readonly contextId: string | null;
  readonly browser: PreparedBrowser;
  /** False: the session ends once its last client disconnects (after `DISCONNECT_GRACE_MS`). */
  readonly keepAlive: boolean;
  private current: ProviderSessionSnapshot;
  /** Connected clients (sockets and in-process ones), and the disconnect grace without `keepAlive`. */
  private readonly clients: SessionClients;
  private readonly clock: Clock;
  private readonly onEnded: (session: LocalBrowserSession) => void | Promise<void>;
  private readonly onEnding: (session: LocalBrowserSession) => void;
  private readonly holdDownloads: HoldDownloads | undefined;
  private timer: NodeJS.Timeout | null = null;
  private ending: Promise<void> | null = null;

  constructor(deps: {
    snapshot: ProviderSessionSnapshot;
    keyDigest: Buffer;
    browserdeckSessionId: string;
    projectId: string;
    ownerId: string;
    contextId: string | null;
    browser: PreparedBrowser;
    clock: Clock;
    /** False ends the session once its last client disconnects (default true). */
    keepAlive?: boolean;
    /** Called once the browser is gone and its profile cleaned up; the end waits for what it returns. */
    onEnded: (session: LocalBrowserSession) => void | Promise<void>;
    /** Called once, as the session takes its terminal status (its browser may still be stopping). */
    onEnding?: (session: LocalBrowserSession) => void;
    /** Keeps the session's downloads once it ends (absent: they go with its profile). */
    holdDownloads?: HoldDownloads | undefined;
  }) {
    this.id = deps.snapshot.providerSessionId;
    this.current = deps.snapshot;
    this.keyDigest = deps.keyDigest;
    this.browserdeckSessionId = deps.browserdeckSessionId;
    this.projectId = deps.projectId;
    this.ownerId = deps.ownerId;
    this.contextId = deps.contextId;
    this.browser = deps.browser;
    this.keepAlive = deps.keepAlive ?? true;
    this.clock = deps.clock;
    this.onEnded = deps.onEnded;
    this.onEnding = deps.onEnding ?? (() => {});
    this.holdDownloads = deps.holdDownloads;
    this.clients = new SessionClients({
      keepAlive: this.keepAlive,
      onLastGone: () => void this.end('COMPLETED'),
    });
    void this.browser.process.exited.then((exit) => {
      // Not our doing: a clean exit is a client's `Browser.close`, anything else a crash or a kill.
      if (!exit.expected) void this.end(exit.code === 0 && exit.signal === null ? 'COMPLETED' : 'ERROR');
    });
    if (!this.browser.alive) void this.end('ERROR');
  }

  /**
   * Opens a session on `browser`: a new id and signing key, a `connectUrl` under `publicUrl` (and a
   * `seleniumRemoteUrl` with the same key when `webdriver`), and a deadline `timeoutSec` from now.
   * It is live until it ends.
   */
  static start(options: {
    browser: PreparedBrowser;
    request: CreateBrowserRequest;
    /** The provider instance holding the browser, stamped on its snapshots. */
    instanceId: string;
    publicUrl: string;
    /** True when a chromedriver matches the browser: the session gets a `seleniumRemoteUrl`. */
    webdriver?: boolean;
    clock: Clock;
    timeoutSec: number;
    onEnded: (session: LocalBrowserSession) => void | Promise<void>;
    onEnding?: (session: LocalBrowserSession) => void;
    /** Keeps the session's downloads once it ends (absent: they go with its profile). */
    holdDownloads?: HoldDownloads | undefined;
  }): LocalBrowserSession {
    const id = randomUUID();
    const key = generateSigningKey();
    const now = options.clock.now();
    const session = new LocalBrowserSession({
      snapshot: {
        providerSessionId: id,
        providerProjectId: options.request.providerProjectId,
        status: 'RUNNING',
        connectUrl: buildConnectUrl(options.publicUrl, id, key),
        seleniumRemoteUrl: options.webdriver
          ? buildSeleniumRemoteUrl(options.publicUrl, 'local', id, key)
          : null,
        startedAt: now,
        endedAt: null,
        expiresAt: new Date(now.getTime() + options.timeoutSec * 1000),
        instanceId: options.instanceId,
      },
      keyDigest: digestSigningKey(key),
      browserdeckSessionId: options.request.sessionId,
      projectId: options.request.projectId,
      ownerId: options.request.ownerId,
      contextId: options.request.contextId,
      browser: options.browser,
      clock: options.clock,
      keepAlive: options.request.keepAlive ?? true,
      onEnded: options.onEnded,
      ...(options.onEnding ? { onEnding: options.onEnding } : {}),
      holdDownloads: options.holdDownloads,
    });
    session.armTimeout(options.timeoutSec * 1000);
    return session;
  }

  /** What the provider reports for this session now. */
  get snapshot(): ProviderSessionSnapshot {
    return this.current;
  }

  /** True once the session has a terminal status (its browser may still be stopping). */
  get ended(): boolean {
    return this.ending !== null;
  }

  /** Logs recorded so far, oldest first. */
  logs(): SessionLogEntry[] {
    return this.browser.recorder.entries();
  }

  /** Logs recorded so far with their size, for the archive of ended sessions. */
  boundedLogs(): BoundedLogs {
    return this.browser.recorder.snapshot();
  }

  private armTimeout(ms: number): void {
    this.timer = setTimeout(() => void this.end('TIMED_OUT'), ms);
    this.timer.unref();
  }

  /** Where its clients' CDP connections are opened: the browser's pipe router. */
  get cdpUpstream(): CdpUpstream {
    return this.browser.router;
  }

  /** The session's folders, where file parameters of CDP commands may point. */
  get folders(): SessionFolders {
    return { downloadsDir: this.browser.downloadsDir, uploadsDir: this.browser.uploadsDir };
  }

  /**
   * Tracks a client's proxied connection so that ending tells the client it is going (close code
   * 1001) and cuts it; without `keepAlive`, the last one to close starts the disconnect grace.
   */
  track(socket: Duplex, goingAway: GoingAway): void {
    this.clients.track(socket, goingAway);
  }

  /**
   * Holds an in-process client (the live view's CDP connection) so that ending the session closes it
   * at once, before the browser has stopped. It is not a connected client: it neither starts nor
   * cancels the disconnect grace. Returns the function that lets go of it once it closed.
   */
  holdInProcessClient(client: { close(): void }): () => void {
    return this.clients.holdInProcessClient(client);
  }

  /** Connected clients (one socket each). */
  get openSockets(): number {
    return this.clients.openSockets;
  }

  /** Ends the session with `status` (the first call wins) and resolves once the browser is gone. */
  end(status: LocalEndStatus): Promise<void> {
    this.ending ??= this.finish(status);
    return this.ending;
  }

  private async finish(status: LocalEndStatus): Promise<void> {
    // First of all: a read of the downloads from now on waits for them to be kept.
    const keepDownloads = this.holdDownloads?.(this.id);
    this.current = { ...this.current, status, endedAt: this.clock.now() };
    this.onEnding(this);
    if (this.timer) clearTimeout(this.timer);
    this.clients.closeAll(1001, ENDED_REASON);
    try {
      await this.browser.dispose(keepDownloads);
    } finally {
      // A browser disposed before (or failing to stop) left nothing to keep: the wait ends anyway.
      await keepDownloads?.(null);
      await this.onEnded(this);
    }
  }
}
