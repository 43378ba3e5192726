import type { Logger, SessionViewport } from '@browserdeck/domain';
import type { IsolationLevel } from '../../../confinement/isolation/IsolationLevel.ts';
import type { EgressPolicy } from '../../egress/EgressPolicy.ts';
import type { UpstreamRoute } from '../../egress/UpstreamRoute.ts';
import type { LocatedChromium } from '../chromium/ChromiumLocator.ts';
import type { ExtensionsChromium } from '../extensions/ExtensionsChromium.ts';
import { LOCAL_DEFAULTS, type SizedLocalOptions } from '../LocalChromiumProviderOptions.ts';
import type { ContextClaim } from '../profiles/ContextClaim.ts';
import { BrowserLauncher } from './BrowserLauncher.ts';
import type { PreparedBrowser } from './PreparedBrowser.ts';
import { WarmPool } from './WarmPool.ts';

/**
 * Where the local provider's browsers come from: the warm pool (`WarmPool`) and fresh launches
 * (`BrowserLauncher`: confinement, limits, egress, the Chromium build, temporary profiles).
 */
export class BrowserSupply {
  private readonly launcher: BrowserLauncher;
  private readonly pool: WarmPool;
  private closed = false;

  /** `freeSlots`: browsers the provider may still start (its cap minus sessions and creates under way). */
  constructor(options: SizedLocalOptions, logger: Logger, freeSlots: () => number) {
    if (!Number.isInteger(options.warmBrowsers) || options.warmBrowsers < 0)
      throw new RangeError('warmBrowsers must be a non-negative integer');
    this.launcher = new BrowserLauncher(options, logger);
    this.pool = new WarmPool({
      launch: () => this.launcher.launch({ kind: 'temporary', profiles: this.launcher.profiles }),
      min: options.warmBrowsers,
      max: options.maxSessions,
      freeSlots: () => (this.closed || !this.launcher.searched ? 0 : freeSlots() - this.pool.size),
      logger,
      refillAfterTakeMs: options.warmRefillDelayMs ?? LOCAL_DEFAULTS.warmRefillDelayMs,
    });
  }

  /** The egress policy browsers run with (`BrowserLauncher.egress`). */
  get egress(): EgressPolicy {
    return this.launcher.egress;
  }

  /** The full Chromium sessions with an extension run (`BrowserLauncher.extensionsBuild`). */
  get extensionsBuild(): ExtensionsChromium {
    return this.launcher.extensionsBuild;
  }

  /** Warm browsers held, ready or launching. */
  get warm(): number {
    return this.pool.size;
  }

  /** Sets up confinement and limits (`BrowserLauncher.start`), then fills the warm pool. */
  async start(): Promise<void> {
    if (!(await this.launcher.start())) return;
    this.pool.refill();
    await this.pool.settled();
  }

  /** Confinement set up and a browser found, or why not (a `provider_unavailable`). */
  ready(): Promise<void> {
    return this.launcher.ready();
  }

  /** The browser build sessions run, and its version; `provider_unavailable` when there is none. */
  browserBuild(): Promise<LocatedChromium> {
    return this.launcher.browserBuild();
  }

  /** The isolation level browsers run with. */
  isolationLevel(): Promise<IsolationLevel> {
    return this.launcher.isolationLevel();
  }

  /**
   * A browser for a session admitted with `browser` (`admitSession`): a warm one (its logs cleared),
   * else one launched on the claim's context profile or a fresh one, with `viewport` as its window
   * and `extension` loaded (never a warm one: those run the main build, without it), and a launched
   * one talking through the session's `routes` from its start; `evictWarm` first stops a warm
   * browser whose slot the launch needs.
   */
  async acquire(
    admitted: { browser: 'warm' | 'cold'; evictWarm: boolean },
    claim: ContextClaim | null,
    viewport: SessionViewport | null,
    extension: { readonly archive: Uint8Array } | null = null,
    routes: readonly UpstreamRoute[] = [],
  ): Promise<PreparedBrowser> {
    const warm = admitted.browser === 'warm' && !extension ? await this.pool.take() : null;
    if (warm) {
      warm.recorder.clear();
      // Not waited for: writing a cgroup's CPU weight takes 5–10 ms on cgroup v1 (the warm side's
      // whole create is about as long), and the browser is usable at its low weight meanwhile.
      void warm.foreground();
      return warm;
    }
    if (admitted.evictWarm) this.pool.evictOne();
    const { profiles } = this.launcher;
    return this.launcher.launch(
      claim?.profile(profiles) ?? { kind: 'temporary', profiles },
      viewport,
      extension,
      routes,
    );
  }

  /** Tops the warm pool up into free slots. */
  refill(): void {
    this.pool.refill();
  }

  /** A session is being released: a replacement held back after its take starts now (`WarmPool.endHold`). */
  sessionEnding(): void {
    this.pool.endHold();
  }

  /** Resolves when no warm browser is launching. */
  settled(): Promise<void> {
    return this.pool.settled();
  }

  /** At process exit: warm browsers killed, limits and profiles released at once. */
  killAllNow(): void {
    for (const browser of this.pool.readyBrowsers()) browser.process.killNow();
    this.launcher.releaseAllSync();
  }

  /** Stops the warm browsers; `finish` once the sessions' browsers are gone too. */
  closePool(): Promise<void> {
    this.closed = true;
    return this.pool.close();
  }

  /** Removes what is left of profiles and limits, once every browser has stopped. */
  finish(): Promise<void> {
    return this.launcher.close();
  }
}
