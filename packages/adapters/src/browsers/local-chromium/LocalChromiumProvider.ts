import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import type { Duplex } from 'node:stream';
import {
  type BrowserProvider,
  type CreateBrowserRequest,
  type Logger,
  ProviderError,
  type ProviderSessionSnapshot,
  type SessionLogEntry,
  silentLogger,
  TIMEOUT_MIN_SEC,
} from '@browserdeck/domain';
import { ChromiumLocator } from './ChromiumLocator.ts';
import { capacityError } from './capacityError.ts';
import { contextProfileDir } from './contextProfileDir.ts';
import { EndedSessionArchive } from './EndedSessionArchive.ts';
import { LocalBrowserSession } from './LocalBrowserSession.ts';
import type { LocalChromiumProviderOptions } from './LocalChromiumProviderOptions.ts';
import { PreparedBrowser, type ProfileChoice } from './PreparedBrowser.ts';
import { type ConnectRefusal, serveConnectUpgrade } from './serveConnectUpgrade.ts';
import { WarmPool } from './WarmPool.ts';

/** How long after handing out a warm browser its replacement starts (see `WarmPool.refillSoon`). */
const REFILL_DELAY_MS = 250;

/**
 * The `local` browser provider: one headless Chromium process per session on this host, DevTools
 * on loopback only, reached through the service's own signed WebSocket endpoint (`handleUpgrade`).
 * See docs/adr/0003-local-chromium-provider.md.
 */
export class LocalChromiumProvider implements BrowserProvider {
  readonly name = 'local';
  readonly regions: readonly string[] = ['local'];
  readonly defaultProviderProjectId = 'local';
  private readonly options: LocalChromiumProviderOptions;
  private readonly logger: Logger;
  private readonly live = new Map<string, LocalBrowserSession>();
  private readonly contextsInUse = new Set<string>();
  private readonly archive: EndedSessionArchive;
  private readonly pool: WarmPool;
  private readonly locator: ChromiumLocator;
  private reserved = 0;
  private closed = false;
  private readonly killAllNow = (): void => {
    for (const session of this.live.values()) session.browser.process.killNow();
    for (const browser of this.pool.readyBrowsers()) browser.process.killNow();
  };

  constructor(options: LocalChromiumProviderOptions) {
    if (!Number.isInteger(options.maxSessions) || options.maxSessions < 1)
      throw new RangeError('maxSessions must be a positive integer');
    if (!Number.isInteger(options.warmBrowsers) || options.warmBrowsers < 0)
      throw new RangeError('warmBrowsers must be a non-negative integer');
    this.options = options;
    this.logger = options.logger ?? silentLogger;
    this.locator = new ChromiumLocator({ ...options.chromiumSearch, chromiumPath: options.chromiumPath });
    this.archive = new EndedSessionArchive({
      maxSessions: options.endedSessionRetention ?? 1000,
      maxWithLogs: options.endedLogRetention ?? 100,
    });
    this.pool = new WarmPool({
      launch: () => this.launch({ kind: 'temporary', parentDir: this.tempDir }),
      target: options.warmBrowsers,
      freeSlots: () =>
        this.closed || !this.locator.searched
          ? 0
          : options.maxSessions - this.live.size - this.reserved - this.pool.size,
      logger: this.logger,
    });
    // Browsers run in their own process groups: make sure they die with this process.
    process.on('exit', this.killAllNow);
  }

  /** Finds the browser and fills the warm pool; a missing browser is logged, not thrown. */
  async start(): Promise<void> {
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
    if (this.closed) throw new ProviderError('provider_unavailable', 'The local provider is shutting down.');
    const contextId = request.contextId;
    const profileDir = contextId === null ? null : contextProfileDir(this.options.dataDir, contextId);
    await this.locator.locate();
    if (this.live.size + this.reserved >= this.options.maxSessions)
      throw capacityError(
        this.options.maxSessions,
        [...this.live.values()].map((s) => s.snapshot.expiresAt),
        this.options.clock.now(),
      );
    if (contextId !== null && this.contextsInUse.has(contextId)) {
      const message = `Context ${contextId} is in use by a running session.`;
      throw new ProviderError('provider_rate_limited', message, { retryAfterSec: 5 });
    }
    this.reserved++;
    if (contextId !== null) this.contextsInUse.add(contextId);
    try {
      let browser = profileDir === null ? await this.pool.take() : null;
      if (browser) browser.recorder.clear();
      else {
        if (this.live.size + this.reserved + this.pool.size > this.options.maxSessions)
          await this.pool.evictOne();
        browser = await this.launch(
          profileDir === null
            ? { kind: 'temporary', parentDir: this.tempDir }
            : { kind: 'persistent', dir: profileDir },
        );
      }
      if (this.closed) {
        await browser.dispose();
        throw new ProviderError('provider_unavailable', 'The local provider is shutting down.');
      }
      return this.open(browser, request).snapshot;
    } catch (error) {
      if (contextId !== null) this.contextsInUse.delete(contextId);
      throw error;
    } finally {
      this.reserved--;
      this.pool.refillSoon(REFILL_DELAY_MS);
    }
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
   * Serves a session's `connectUrl`: attach to the HTTP server's `upgrade` event. True when the
   * WebSocket is proxied to the session's browser (until the session ends); a `ConnectRefusal` for
   * the host to answer (`refuseUpgrade`) when the session is unknown, the key missing or wrong, or
   * the session ended; false when the request is not for a connect endpoint at all.
   */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean | ConnectRefusal {
    return serveConnectUpgrade(req, socket, head, this.options.publicUrl, (id) => {
      const running = this.live.get(id);
      const keyDigest = running?.keyDigest ?? this.archive.get(id)?.keyDigest;
      return keyDigest ? { keyDigest, running: running ?? null } : null;
    });
  }

  /** Stops every browser (sessions end as COMPLETED), empties the warm pool, removes temporary profiles. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([this.pool.close(), ...[...this.live.values()].map((s) => s.end('COMPLETED'))]);
    process.off('exit', this.killAllNow);
  }

  private get tempDir(): string {
    return this.options.tempDir ?? tmpdir();
  }

  private open(browser: PreparedBrowser, request: CreateBrowserRequest): LocalBrowserSession {
    const session = LocalBrowserSession.start({
      browser,
      request,
      publicUrl: this.options.publicUrl,
      clock: this.options.clock,
      timeoutSec: Math.max(request.timeoutSec, this.options.minTimeoutSec ?? TIMEOUT_MIN_SEC),
      onEnded: (ended) => this.retire(ended),
    });
    this.live.set(session.id, session);
    return session;
  }

  private retire(session: LocalBrowserSession): void {
    this.live.delete(session.id);
    if (session.contextId !== null) this.contextsInUse.delete(session.contextId);
    this.archive.add(session.snapshot, session.keyDigest, session.logs());
    this.pool.refill();
  }

  private launch(profile: ProfileChoice): Promise<PreparedBrowser> {
    return this.locator.locate().then((found) =>
      PreparedBrowser.launch({
        executablePath: found.path,
        profile,
        clock: this.options.clock,
        logBufferSize: this.options.logBufferSize ?? 1000,
      }),
    );
  }
}
