import { networkInterfaces, tmpdir } from 'node:os';
import { dirname } from 'node:path';
import {
  type Logger,
  ProviderError,
  SESSION_LOG_DEFAULT_BUDGET_BYTES,
  SESSION_LOG_ENTRY_MAX_BYTES,
  type SessionViewport,
} from '@browserdeck/domain';
import { BrowserConfinement } from '../../../confinement/isolation/BrowserConfinement.ts';
import type { IsolationLevel } from '../../../confinement/isolation/IsolationLevel.ts';
import { BrowserLimits } from '../../../confinement/limits/BrowserLimits.ts';
import { type ResourceLimits, resolveResourceLimits } from '../../../confinement/limits/ResourceLimits.ts';
import { EgressPolicy } from '../../egress/EgressPolicy.ts';
import type { UpstreamRoute } from '../../egress/UpstreamRoute.ts';
import { ChromiumLocator, type LocatedChromium } from '../chromium/ChromiumLocator.ts';
import { ExtensionsChromium } from '../extensions/ExtensionsChromium.ts';
import type { SizedLocalOptions } from '../LocalChromiumProviderOptions.ts';
import { TemporaryProfiles } from '../profiles/TemporaryProfiles.ts';
import type { ProfileChoice } from './BrowserLaunchSettings.ts';
import { PreparedBrowser } from './PreparedBrowser.ts';

/**
 * Everything a local browser launch needs, set up once per provider: the confinement
 * (`BrowserConfinement`, on first use), the per-browser resource limits (`BrowserLimits`), the egress
 * policy, the Chromium build (`ChromiumLocator`) and the temporary profiles. `launch` starts one
 * `PreparedBrowser` with all of them.
 */
export class BrowserLauncher {
  /** Fresh temporary profiles (and staged copies of context profiles), removed as browsers stop. */
  readonly profiles: TemporaryProfiles;
  private readonly options: SizedLocalOptions;
  private readonly logger: Logger;
  /** What browsers may reach: also what a session's upstream proxies are checked against. */
  readonly egress: EgressPolicy;
  private readonly locator: ChromiumLocator;
  /** The full Chromium sessions with an extension run (a headless shell cannot load one). */
  readonly extensionsBuild: ExtensionsChromium;
  private readonly resourceLimits: ResourceLimits;
  private confinement: Promise<BrowserConfinement> | null = null;
  private limits: Promise<BrowserLimits> | null = null;
  private limitsInForce: BrowserLimits | null = null;

  constructor(options: SizedLocalOptions, logger: Logger) {
    this.options = options;
    this.logger = logger;
    this.profiles = new TemporaryProfiles(options.tempDir ?? tmpdir(), logger);
    this.egress = new EgressPolicy({ ...options.egress, ownAddresses: ownAddresses() });
    this.locator = new ChromiumLocator(
      {
        ...options.chromiumSearch,
        chromiumPath: options.chromiumPath,
        chromedriverPath: options.chromedriverPath,
      },
      logger,
    );
    this.extensionsBuild = new ExtensionsChromium(
      {
        extensionsChromiumPath: options.extensionsChromiumPath,
        chromiumPath: options.chromiumPath,
        env: options.chromiumSearch?.env,
      },
      logger,
    );
    this.resourceLimits = resolveResourceLimits(
      {
        memoryMb: options.browserMemoryMb,
        pids: options.browserPids,
        diskMb: options.sessionDiskMb,
        cpuWeight: options.browserCpuWeight,
      },
      // The memory this process may use: a container's or unit's limit when lower than the machine's.
      { totalMemoryBytes: options.hostResources.memoryBytes, maxSessions: options.maxSessions },
    );
  }

  /** True once the browser has been looked for (found or not): warm browsers wait for it. */
  get searched(): boolean {
    return this.locator.searched;
  }

  /**
   * Sets up the confinement (throwing, with what is missing, when no level can be set up: browsers
   * never run unconfined unless told `isolation: 'off'`) and the limits, logging both (and the limits
   * this host cannot enforce), then finds the browser: false, logged, when there is none.
   */
  async start(): Promise<boolean> {
    const confinement = await this.confine();
    this.logger.info?.(
      {
        isolation: confinement.level,
        browserUser: confinement.user?.name ?? null,
        egress: this.egress.describe(),
      },
      `local provider: browsers run with isolation level ${confinement.level}`,
    );
    const limits = await this.browserLimits();
    this.logger.info?.({ limits: limits.describe() }, 'local provider: per-browser resource limits');
    if (limits.notInForce.length > 0)
      this.logger.warn(
        { notInForce: limits.notInForce },
        `local provider: browsers run WITHOUT these limits: ${limits.notInForce.map((p) => `${p.limit} (${p.reason})`).join('; ')}`,
      );
    this.extensionsBuild.logAtStart();
    try {
      await this.locator.locate();
      return true;
    } catch (error) {
      this.logger.warn({ err: error }, 'local provider: no Chromium; sessions cannot start');
      return false;
    }
  }

  /** Makes sure a launch can happen: confinement set up and a browser found (else it throws). */
  async ready(): Promise<void> {
    await Promise.all([this.confine(), this.locator.locate()]);
  }

  /** The browser build sessions run (found on first use); `provider_unavailable` when there is none. */
  browserBuild(): Promise<LocatedChromium> {
    return this.locator.locate();
  }

  /** The isolation level browsers run with (setting it up on first use). */
  async isolationLevel(): Promise<IsolationLevel> {
    return (await this.confine()).level;
  }

  /**
   * Starts a confined, limited browser on `profile`, with a window of `windowSize` (null: Chromium's);
   * with `extension`, the extension-capable build (`extensionsBuild`), loading it; with
   * `sessionRoutes`, for that session, its upstream routes in force from the start (null: a warm browser).
   */
  async launch(
    profile: ProfileChoice,
    windowSize: SessionViewport | null = null,
    extension: { readonly archive: Uint8Array } | null = null,
    sessionRoutes: readonly UpstreamRoute[] | null = null,
  ): Promise<PreparedBrowser> {
    const [confinement, found, limits] = await Promise.all([
      this.confine(),
      extension ? this.extensionsBuild.locate() : this.locator.locate(),
      this.browserLimits(),
    ]);
    return PreparedBrowser.launch({
      limits,
      staging: this.profiles,
      executablePath: found.path,
      profile,
      confinement,
      egress: this.egress,
      clock: this.options.clock,
      logLimits: {
        maxEntryBytes: SESSION_LOG_ENTRY_MAX_BYTES,
        maxBytes: this.options.sessionLogMaxBytes ?? SESSION_LOG_DEFAULT_BUDGET_BYTES,
      },
      windowSize,
      extension,
      sessionRoutes,
    });
  }

  /** At process exit: stragglers in the browsers' cgroups killed, their disks detached, profiles gone. */
  releaseAllSync(): void {
    this.limitsInForce?.releaseAllSync();
    this.profiles.removeAllSync();
  }

  /** Once every browser has stopped: removes what is left of profiles and limits. */
  async close(): Promise<void> {
    await this.profiles.removeAll();
    await (await this.limits?.catch(() => null))?.close();
  }

  private confine(): Promise<BrowserConfinement> {
    this.confinement ??= BrowserConfinement.setUp({
      setting: this.options.isolation ?? 'on',
      browserUser: this.options.browserUser,
      hiddenPaths: [this.options.dataDir, ...(this.options.hiddenPaths ?? serviceFolders())],
      logger: this.logger,
    }).catch((error: unknown) => {
      this.confinement = null;
      throw new ProviderError('provider_unavailable', (error as Error).message, { cause: error });
    });
    return this.confinement;
  }

  private browserLimits(): Promise<BrowserLimits> {
    this.limits ??= BrowserLimits.setUp({ limits: this.resourceLimits, logger: this.logger }).then(
      (limits) => {
        this.limitsInForce = limits;
        return limits;
      },
    );
    return this.limits;
  }
}

/** The service's own folders: where it runs from and where its main module lives. */
function serviceFolders(): string[] {
  const main = process.argv[1];
  return main ? [process.cwd(), dirname(main)] : [process.cwd()];
}

/** This host's own addresses, which browsers may never reach (the service listens on some of them). */
function ownAddresses(): string[] {
  return Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((i) => i.address));
}
