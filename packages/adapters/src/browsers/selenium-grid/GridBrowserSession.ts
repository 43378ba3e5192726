import type { Duplex } from 'node:stream';
import type {
  Clock,
  Logger,
  ProviderSessionSnapshot,
  SessionLogEntry,
  SessionStatus,
} from '@browserdeck/domain';
import { CdpClient } from '../cdp/CdpClient.ts';
import type { CdpConnection, CdpUpstream } from '../cdp/CdpConnection.ts';
import type { BoundedLogs, SessionLogLimits } from '../cdp/logs/SessionLogBuffer.ts';
import { SessionLogRecorder } from '../cdp/logs/SessionLogRecorder.ts';
import type { NetworkCapture } from '../cdp/network/NetworkCapture.ts';
import type { GoingAway } from '../cdp/proxyCdpConnection.ts';
import type { Recordings } from '../cdp/recording/Recordings.ts';
import type { ScreencastRecording } from '../cdp/recording/ScreencastRecording.ts';
import { SessionClients } from '../cdp/SessionClients.ts';
import type { ConnectTarget } from '../cdp/serveConnectUpgrade.ts';
import type { WebSocketCdpUpstream } from '../cdp/WebSocketCdpUpstream.ts';
import { RECORDING_CAPPED_METHOD } from '../local-chromium/session/features/recordingFeature.ts';

const ENDED_REASON = 'The browser session has ended.';

/** A terminal status the Grid provider gives a session. */
export type GridEndStatus = Extract<SessionStatus, 'COMPLETED' | 'ERROR' | 'TIMED_OUT'>;

/** What a session needs of the Grid: deleting it, and asking whether it still knows it. */
export interface GridSessionCalls {
  deleteSession(sessionId: string): Promise<boolean>;
  sessionExists(sessionId: string): Promise<boolean>;
}

/**
 * One running Grid session, held by the process that created it: its WebDriver session, the
 * provider's own CDP connection to `se:cdp` recording its logs, its connected clients, its deadline
 * and a keep-alive that shows the session to the Grid (so the Grid's idle timeout does not end a
 * session driven only over CDP) and notices one the Grid lost.
 *
 * How it ends (`end`, idempotent, the first status wins; every client is told, the recorder closed,
 * the WebDriver session deleted in the background): release → `COMPLETED`; `timeoutSec` → `TIMED_OUT`; without
 * `keepAlive`, the last client gone → `COMPLETED`; a client's `Browser.close` → `COMPLETED` (as a
 * local browser's clean exit); the browser gone otherwise (its CDP endpoint closed, or the Grid no
 * longer knows the session: a node lost, the Grid's own session timeout) → `ERROR`, since nobody
 * asked for it to end.
 */
export class GridBrowserSession implements ConnectTarget {
  readonly id: string;
  /** Our own id of the session (a WebDriver client may name the session by it). */
  readonly browserdeckSessionId: string;
  /** The capabilities the Grid answered the WebDriver session with (what its WebDriver endpoint answers a new session with). */
  readonly webdriverCapabilities: Readonly<Record<string, unknown>>;
  readonly keyDigest: Buffer;
  /** Where clients' CDP connections are opened: a WebSocket to `se:cdp` each. */
  readonly cdpUpstream: CdpUpstream;
  /** The browser runs on a Grid node: no folders here for file parameters. */
  readonly folders = null;
  private current: ProviderSessionSnapshot;
  private readonly clients: SessionClients;
  private readonly recorder: SessionLogRecorder;
  private readonly networkCapture: NetworkCapture | undefined;
  private readonly recording: { recordings: Recordings; recording: ScreencastRecording } | undefined;
  private readonly grid: GridSessionCalls;
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly onEnded: (session: GridBrowserSession) => void;
  private recorderCdp: CdpClient | null = null;
  /** Resolves true once the recorder records (`connectRecorder`), false if it never will. */
  readonly recorderConnected: Promise<boolean>;
  private timer: NodeJS.Timeout | null = null;
  private keepAliveTimer: NodeJS.Timeout | null = null;
  private closedByClient = false;
  private ending: Promise<void> | null = null;
  private deletion: Promise<void> = Promise.resolve();
  private signalEnded: () => void = () => {};
  /** Resolves once the session ends. */
  private readonly endedSignal = new Promise<void>((resolve) => {
    this.signalEnded = resolve;
  });

  private constructor(deps: {
    snapshot: ProviderSessionSnapshot;
    browserdeckSessionId: string;
    capabilities: Readonly<Record<string, unknown>>;
    keyDigest: Buffer;
    upstream: WebSocketCdpUpstream;
    keepAlive: boolean;
    logLimits: SessionLogLimits;
    grid: GridSessionCalls;
    networkCapture?: NetworkCapture | undefined;
    recordings?: Recordings | undefined;
    recordingOwnerId?: string | undefined;
    clock: Clock;
    logger: Logger;
    onEnded: (session: GridBrowserSession) => void;
  }) {
    this.id = deps.snapshot.providerSessionId;
    this.browserdeckSessionId = deps.browserdeckSessionId;
    this.webdriverCapabilities = deps.capabilities;
    this.current = deps.snapshot;
    this.keyDigest = deps.keyDigest;
    this.grid = deps.grid;
    this.clock = deps.clock;
    this.logger = deps.logger;
    this.onEnded = deps.onEnded;
    this.recorder = new SessionLogRecorder({ clock: deps.clock, limits: deps.logLimits });
    this.networkCapture = deps.networkCapture;
    this.recorder.captureNetwork(deps.networkCapture ?? null);
    if (deps.recordings) {
      const recording = deps.recordings.start(this.id, {
        ownerId: deps.recordingOwnerId,
        onCapped: () =>
          this.recorder.recordServiceEvent(RECORDING_CAPPED_METHOD, {
            reason:
              'The session’s recording reached its bound (RECORDING_MAX_MB); later frames are not in its videos.',
          }),
      });
      this.recording = { recordings: deps.recordings, recording };
      this.recorder.captureVideo(recording, deps.recordings.maxFps);
    }
    this.clients = new SessionClients({
      keepAlive: deps.keepAlive,
      onLastGone: () => void this.end('COMPLETED'),
    });
    const upstream = deps.upstream;
    this.recorderConnected = this.connectRecorder(upstream);
    // A client's handshake runs beside the recorder's; its commands go once the recorder's
    // auto-attach is on the wire, so every page it opens is recorded. A client's `Browser.close`
    // ends the browser on purpose: the session then ends COMPLETED.
    this.cdpUpstream = {
      openClient: async (deliver, onEnd) => {
        const opening = upstream.openClient(deliver, onEnd);
        const [connected, connection] = await Promise.all([this.recorderConnected, opening]);
        if (!connected) {
          connection.close();
          throw new Error(ENDED_REASON);
        }
        return this.noticeBrowserClose(connection);
      },
    };
  }

  /**
   * Starts holding a new Grid session: arms its deadline (`timeoutSec` from now) and its keep-alive,
   * and connects the log recorder to its `se:cdp` in the background (`recorderConnected`): the create
   * does not wait for that handshake, a client's connect does. A recorder that cannot connect ends
   * the session `ERROR` (and deletes it at the Grid).
   */
  static open(options: {
    snapshot: ProviderSessionSnapshot;
    browserdeckSessionId: string;
    /** The capabilities the Grid answered the new session with. */
    capabilities: Readonly<Record<string, unknown>>;
    keyDigest: Buffer;
    upstream: WebSocketCdpUpstream;
    keepAlive: boolean;
    timeoutSec: number;
    keepAliveIntervalMs: number;
    logLimits: SessionLogLimits;
    grid: GridSessionCalls;
    /** Where the session's network goes for its HAR (absent: not captured). */
    networkCapture?: NetworkCapture | undefined;
    /** Where the session is recorded (absent: not recorded), and whose it is. */
    recordings?: Recordings | undefined;
    recordingOwnerId?: string | undefined;
    clock: Clock;
    logger: Logger;
    onEnded: (session: GridBrowserSession) => void;
  }): GridBrowserSession {
    const session = new GridBrowserSession(options);
    session.timer = setTimeout(() => void session.end('TIMED_OUT'), options.timeoutSec * 1000);
    session.timer.unref();
    session.keepAliveTimer = setInterval(
      () => void session.checkAtGrid().catch(() => {}),
      options.keepAliveIntervalMs,
    );
    session.keepAliveTimer.unref();
    return session;
  }

  /**
   * Opens the recorder's own connection to `se:cdp` and starts recording; true once its auto-attach
   * is on the wire (its answer is not waited for: a browser that refuses it ends the session), false
   * when the session ended first or the connection could not be opened (the session then ends ERROR).
   */
  private async connectRecorder(upstream: WebSocketCdpUpstream): Promise<boolean> {
    const cdp = new CdpClient();
    try {
      cdp.attach(await upstream.openClient(cdp.receive, cdp.receiveClose));
    } catch (error) {
      this.logger.warn(
        { providerSessionId: this.id, error: String(error) },
        'the Grid started a session whose CDP endpoint (se:cdp) could not be reached; it ends ERROR',
      );
      void this.end('ERROR');
      return false;
    }
    if (this.ending) {
      cdp.close();
      return false;
    }
    this.recorderCdp = cdp;
    // The recorder's connection closing means the browser (or the Grid's way to it) went away.
    cdp.onClose(() => void this.end(this.closedByClient ? 'COMPLETED' : 'ERROR'));
    this.recorder.start(cdp).catch(() => void this.end('ERROR'));
    return true;
  }

  /** What the provider reports for this session now. */
  get snapshot(): ProviderSessionSnapshot {
    return this.current;
  }

  /** True once the session has a terminal status. */
  get ended(): boolean {
    return this.ending !== null;
  }

  /** Connected clients (one socket each). */
  get openSockets(): number {
    return this.clients.openSockets;
  }

  /** Logs recorded so far, oldest first. */
  logs(): SessionLogEntry[] {
    return this.recorder.entries();
  }

  /** Logs recorded so far with their size, for the archive of ended sessions. */
  boundedLogs(): BoundedLogs {
    return this.recorder.snapshot();
  }

  /** Tracks a client's proxied connection (`SessionClients.track`). */
  track(socket: Duplex, goingAway: GoingAway): void {
    this.clients.track(socket, goingAway);
  }

  /** Holds an in-process client (the live view's), closed when the session ends. */
  holdInProcessClient(client: { close(): void }): () => void {
    return this.clients.holdInProcessClient(client);
  }

  /**
   * Asks the Grid whether it still knows the session; one it lost ends `ERROR`. Throws what the
   * Grid call threw (it could not be asked), leaving the session as it is.
   */
  async checkAtGrid(): Promise<void> {
    if (this.ending) return;
    // A Grid stopping a session holds reads of it for seconds; the session may end meanwhile.
    const exists = await Promise.race([this.grid.sessionExists(this.id), this.endedSignal.then(() => true)]);
    if (!exists) await this.end('ERROR', { deleted: true });
  }

  /**
   * Ends the session with `status` (the first call wins, also when ending makes something else try to
   * end it): tells every client, stops the recorder and the timers, and starts deleting the WebDriver
   * session (unless it is gone already: `deleted`). Resolves once the session has ended here; the
   * deletion goes on in `deletion` (a Grid may take many seconds to stop a driver).
   */
  end(status: GridEndStatus, how: { deleted?: boolean } = {}): Promise<void> {
    if (this.ending) return this.ending;
    this.current = { ...this.current, status, endedAt: this.clock.now() };
    this.ending = Promise.resolve();
    this.signalEnded();
    if (this.timer) clearTimeout(this.timer);
    if (this.keepAliveTimer) clearInterval(this.keepAliveTimer);
    this.clients.closeAll(1001, ENDED_REASON);
    this.recorder.captureVideo(null);
    this.recorderCdp?.close();
    this.recorder.captureNetwork(null);
    // The end resolves once the network capture's and the recording's last writes are in (neither
    // fails: they log); the videos are then made in the background.
    this.ending = Promise.all([
      this.networkCapture?.end(),
      this.recording?.recordings.endAndMake(this.recording.recording),
    ]).then(() => {});
    if (!how.deleted) this.deletion = this.deleteAtGrid(status);
    this.onEnded(this);
    return this.ending;
  }

  /** Settles once the WebDriver session of an ended session is deleted (or could not be). */
  get deleted(): Promise<void> {
    return this.deletion;
  }

  private async deleteAtGrid(status: GridEndStatus): Promise<void> {
    try {
      await this.grid.deleteSession(this.id);
    } catch (error) {
      // Nothing is served for it here any more; the Grid ends it at its own session timeout.
      this.logger.warn(
        { providerSessionId: this.id, status, error: String(error) },
        'could not delete a Grid session; the Grid ends it at its own session timeout',
      );
    }
  }

  private noticeBrowserClose(connection: CdpConnection): CdpConnection {
    return {
      send: (command) => {
        if (command.method === 'Browser.close' && command.sessionId === undefined) this.closedByClient = true;
        return connection.send(command);
      },
      drained: () => connection.drained(),
      close: () => connection.close(),
      get isClosed() {
        return connection.isClosed;
      },
    };
  }
}
