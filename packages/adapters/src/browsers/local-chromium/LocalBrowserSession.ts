import { randomUUID } from 'node:crypto';
import type { Duplex } from 'node:stream';
import type {
  Clock,
  CreateBrowserRequest,
  ProviderSessionSnapshot,
  SessionLogEntry,
  SessionStatus,
} from '@browserdeck/domain';
import { buildConnectUrl } from './connectPath.ts';
import type { PreparedBrowser } from './PreparedBrowser.ts';
import { digestSigningKey, generateSigningKey } from './signingKey.ts';

/** A terminal status the local provider gives a session. */
export type LocalEndStatus = Extract<SessionStatus, 'COMPLETED' | 'ERROR' | 'TIMED_OUT'>;

/**
 * One running local session: its browser, its connect-key digest, its open proxied connections and
 * its deadline. `end` is idempotent: the first terminal status wins, every connection is cut, the
 * browser is stopped and a temporary profile removed. A browser exit we did not ask for is `ERROR`,
 * unless it was a clean exit (code 0: a client sent `Browser.close`), which is `COMPLETED`.
 */
export class LocalBrowserSession {
  readonly id: string;
  readonly keyDigest: Buffer;
  /** Our project id: contexts and slots are counted per project. */
  readonly projectId: string;
  readonly contextId: string | null;
  readonly browser: PreparedBrowser;
  private current: ProviderSessionSnapshot;
  private readonly sockets = new Set<Duplex>();
  private readonly clock: Clock;
  private readonly onEnded: (session: LocalBrowserSession) => void;
  private timer: NodeJS.Timeout | null = null;
  private ending: Promise<void> | null = null;

  constructor(deps: {
    snapshot: ProviderSessionSnapshot;
    keyDigest: Buffer;
    projectId: string;
    contextId: string | null;
    browser: PreparedBrowser;
    clock: Clock;
    /** Called once the browser is gone and its profile cleaned up. */
    onEnded: (session: LocalBrowserSession) => void;
  }) {
    this.id = deps.snapshot.providerSessionId;
    this.current = deps.snapshot;
    this.keyDigest = deps.keyDigest;
    this.projectId = deps.projectId;
    this.contextId = deps.contextId;
    this.browser = deps.browser;
    this.clock = deps.clock;
    this.onEnded = deps.onEnded;
    void this.browser.process.exited.then((exit) => {
      // Not our doing: a clean exit is a client's `Browser.close`, anything else a crash or a kill.
      if (!exit.expected) void this.end(exit.code === 0 && exit.signal === null ? 'COMPLETED' : 'ERROR');
    });
    if (!this.browser.alive) void this.end('ERROR');
  }

  /**
   * Opens a session on `browser`: a new id and signing key, a `connectUrl` under `publicUrl`, and
   * a deadline `timeoutSec` from now. It is live until it ends.
   */
  static start(options: {
    browser: PreparedBrowser;
    request: CreateBrowserRequest;
    /** The provider instance holding the browser, stamped on its snapshots. */
    instanceId: string;
    publicUrl: string;
    clock: Clock;
    timeoutSec: number;
    onEnded: (session: LocalBrowserSession) => void;
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
        seleniumRemoteUrl: null,
        startedAt: now,
        endedAt: null,
        expiresAt: new Date(now.getTime() + options.timeoutSec * 1000),
        instanceId: options.instanceId,
      },
      keyDigest: digestSigningKey(key),
      projectId: options.request.projectId,
      contextId: options.request.contextId,
      browser: options.browser,
      clock: options.clock,
      onEnded: options.onEnded,
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

  private armTimeout(ms: number): void {
    this.timer = setTimeout(() => void this.end('TIMED_OUT'), ms);
    this.timer.unref();
  }

  /** Tracks a proxied connection (client side and browser side) so that ending cuts it. */
  track(...sockets: Duplex[]): void {
    for (const socket of sockets) {
      if (this.ending) {
        socket.destroy();
        continue;
      }
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    }
  }

  /** Open proxied sockets (both sides of each connection). */
  get openSockets(): number {
    return this.sockets.size;
  }

  /** Ends the session with `status` (the first call wins) and resolves once the browser is gone. */
  end(status: LocalEndStatus): Promise<void> {
    this.ending ??= this.finish(status);
    return this.ending;
  }

  private async finish(status: LocalEndStatus): Promise<void> {
    this.current = { ...this.current, status, endedAt: this.clock.now() };
    if (this.timer) clearTimeout(this.timer);
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    try {
      await this.browser.dispose();
    } finally {
      this.onEnded(this);
    }
  }
}
