import { rm } from 'node:fs/promises';
import type { BrowserLimitsLease } from '../../../confinement/limits/BrowserLimitsLease.ts';
import { CdpClient } from '../../cdp/CdpClient.ts';
import { BROWSER_KILLED_METHOD, SessionLogRecorder } from '../../cdp/logs/SessionLogRecorder.ts';
import { EgressProxy, PROXY_FAILED_METHOD } from '../../egress/EgressProxy.ts';
import type { OwnEndpoint } from '../../egress/OwnEndpointTunnel.ts';
import type { UpstreamRoute } from '../../egress/UpstreamRoute.ts';
import { CdpRouter } from '../cdp/CdpRouter.ts';
import { ChromiumProcess } from '../chromium/ChromiumProcess.ts';
import { DEFAULT_WINDOW_SIZE, fitWindowToViewport } from '../chromium/fitWindowToViewport.ts';
import { confirmExtensionLoaded } from '../extensions/confirmExtensionLoaded.ts';
import { guardExtensionsPage } from '../extensions/guardExtensionsPage.ts';
import { type StagedExtension, stageExtension } from '../extensions/stageExtension.ts';
import { blockBrowserPages } from '../profiles/blockBrowserPages.ts';
import { copyContextProfile } from '../profiles/copyContextProfile.ts';
import { downloadsDirOf } from '../profiles/downloadsDirOf.ts';
import { plainFolder } from '../profiles/plainFolder.ts';
import { saveStagedProfile } from '../profiles/saveStagedProfile.ts';
import type { TemporaryProfiles } from '../profiles/TemporaryProfiles.ts';
import { uploadsDirOf } from '../profiles/uploadsDirOf.ts';
import type { BrowserLaunchSettings, ProfileChoice } from './BrowserLaunchSettings.ts';

/** How long a browser with a persistent profile may take to shut down cleanly. */
const PERSISTENT_SHUTDOWN_GRACE_MS = 5_000;

/**
 * A running browser with its egress proxy, its DevTools router and the provider's own CDP
 * connection and log recorder attached: what a session (or the warm pool) holds.
 */
export class PreparedBrowser {
  readonly process: ChromiumProcess;
  readonly router: CdpRouter;
  readonly cdp: CdpClient;
  readonly recorder: SessionLogRecorder;
  /** Where a fresh temporary profile came from, removed when the browser stops; null for a persistent one. */
  readonly temporary: TemporaryProfiles | null;
  private readonly proxy: EgressProxy | null;
  private readonly lease: BrowserLimitsLease | null;
  /** A persistent profile running on a staged copy: where it came from, written back on stop. */
  private readonly stage: { readonly profiles: TemporaryProfiles; readonly contextDir: string } | null;
  private readonly owner: { uid: number; gid: number } | null;
  /** The session's unpacked extension, removed from a persistent profile when the browser stops. */
  private readonly extensionDir: string | null;
  /** Launched for its session (`sessionRoutes`): every byte since launch is the session's. */
  private readonly launchedForSession: boolean;
  private readonly foregroundCpuWeight: number | null;
  private disposal: Promise<void> | null = null;

  private constructor(parts: {
    process: ChromiumProcess;
    router: CdpRouter;
    cdp: CdpClient;
    recorder: SessionLogRecorder;
    temporary: TemporaryProfiles | null;
    proxy: EgressProxy | null;
    lease: BrowserLimitsLease | null;
    stage: { profiles: TemporaryProfiles; contextDir: string } | null;
    owner: { uid: number; gid: number } | null;
    extensionDir: string | null;
    launchedForSession: boolean;
    /** The CPU weight `foreground` gives a warm browser (it started at the least); null: none. */
    foregroundCpuWeight: number | null;
  }) {
    this.process = parts.process;
    this.router = parts.router;
    this.cdp = parts.cdp;
    this.recorder = parts.recorder;
    this.temporary = parts.temporary;
    this.proxy = parts.proxy;
    this.lease = parts.lease;
    this.stage = parts.stage;
    this.owner = parts.owner;
    this.extensionDir = parts.extensionDir;
    this.launchedForSession = parts.launchedForSession;
    this.foregroundCpuWeight = parts.foregroundCpuWeight;
  }

  /**
   * Gives a warm browser its full CPU weight: a session holds it now. Resolves once written; a
   * caller need not wait (the writes of one browser's cgroup apply in the order asked).
   */
  async foreground(): Promise<void> {
    if (this.foregroundCpuWeight !== null) await this.lease?.cgroup?.setCpuWeight(this.foregroundCpuWeight);
  }

  /** Starts a browser, connects to it and starts recording. Cleans up everything if a step fails. */
  static async launch(
    settings: BrowserLaunchSettings & { profile: ProfileChoice },
  ): Promise<PreparedBrowser> {
    const { profile } = settings;
    const limits = settings.limits ?? null;
    const owner = settings.confinement.user;
    const temporary = profile.kind === 'persistent' ? null : profile.profiles;
    // On a size-limited disk a persistent profile runs on a staged copy, written back when it stops.
    const stage =
      profile.kind === 'persistent' && (limits?.limitsDisk || profile.staged) && settings.staging
        ? { profiles: settings.staging, contextDir: profile.dir }
        : null;
    const scratch = temporary ?? stage?.profiles ?? null;
    const profileDir = scratch ? await scratch.create() : (profile as { dir: string }).dir;
    let process: ChromiumProcess | null = null;
    let proxy: EgressProxy | null = null;
    let lease: BrowserLimitsLease | null = null;
    let staged: StagedExtension | null = null;
    try {
      // The disk is mounted on the fresh, empty folder, before anything is written to it.
      lease = (await limits?.lease(profileDir, owner, scratch !== null)) ?? null;
      // A warm browser starts at the least CPU weight, yielding to the sessions and runs at work,
      // and gets its share back when a session takes it (`foreground`).
      const background = settings.sessionRoutes == null ? (limits?.limits.cpuWeight ?? null) : null;
      if (background !== null) await lease?.cgroup?.yieldCpu();
      if (profile.kind === 'copy') await copyContextProfile(profile.from, profileDir, owner);
      if (stage) await copyContextProfile(stage.contextDir, profileDir, owner);
      await plainFolder(downloadsDirOf(profileDir));
      await settings.confinement.claim(profileDir);
      await settings.confinement.claim(downloadsDirOf(profileDir));
      await blockBrowserPages(profileDir, owner);
      if (settings.extension) staged = await stageExtension(settings.extension.archive, profileDir, owner);
      const recorder = new SessionLogRecorder({ clock: settings.clock, limits: settings.logLimits });
      if (settings.egress)
        proxy = await EgressProxy.start({
          policy: settings.egress,
          onRefused: (r) => recorder.recordEgressRefusal(r),
          // The upstream by its credential-free label only: the password never reaches a log.
          onUpstreamFailed: ({ upstream, host, port, reason }) =>
            recorder.recordServiceEvent(PROXY_FAILED_METHOD, { upstream, host, port, reason }),
          ...(settings.sessionRoutes ? { routes: settings.sessionRoutes } : {}),
        });
      process = await ChromiumProcess.launch({
        executablePath: settings.executablePath,
        profileDir,
        confinement: settings.confinement,
        proxyUrl: proxy?.url ?? null,
        windowSize: settings.windowSize ?? null,
        cgroupProcsFiles: lease?.procsFiles ?? [],
        tmpfsBytes: limits?.tmpfsBytes ?? null,
        extensionDir: staged?.dir ?? null,
      });
      const router = new CdpRouter(process.pipe);
      const cdp = new CdpClient();
      cdp.attach(router.openRoot(cdp.receive, cdp.receiveClose));
      await recorder.start(cdp);
      if (staged) {
        const started = process;
        await confirmExtensionLoaded(cdp, staged, () => started.recentStderr);
        await guardExtensionsPage(cdp);
      }
      // A full Chromium's window has a frame: its page is fitted to the size asked for (or the default).
      await fitWindowToViewport(router, settings.windowSize ?? DEFAULT_WINDOW_SIZE);
      const browser = new PreparedBrowser({
        process,
        router,
        cdp,
        recorder,
        temporary,
        proxy,
        lease,
        stage,
        owner,
        extensionDir: staged?.dir ?? null,
        launchedForSession: settings.sessionRoutes != null,
        foregroundCpuWeight: background,
      });
      lease?.watchMemory((kill) => {
        recorder.recordServiceEvent(BROWSER_KILLED_METHOD, { ...kill });
        browser.process.killForLimit();
      });
      return browser;
    } catch (error) {
      await process?.kill();
      await proxy?.close();
      await lease?.release();
      await scratch?.remove(profileDir);
      if (staged && !scratch) await rm(staged.dir, { recursive: true, force: true });
      throw error;
    }
  }

  /** The browser's profile folder. */
  get profileDir(): string {
    return this.process.profileDir;
  }

  /** Where the browser's downloads go; a client may name files in it and in `uploadsDir`. */
  get downloadsDir(): string {
    return downloadsDirOf(this.profileDir);
  }

  /** Where a session's uploads are put (made on the first one), for its file inputs. */
  get uploadsDir(): string {
    return uploadsDirOf(this.profileDir);
  }

  /** Who the browser runs as, and so whom files put in its profile are given to; null: the service's user. */
  get fileOwner(): { uid: number; gid: number } | null {
    return this.owner;
  }

  /**
   * Hands the browser's egress to the session taking it: the session's upstream routes (already in
   * force for a browser launched for it) and its own connect endpoint (known once the session has
   * its id; nothing uses it before its `connectUrl` is handed out). A warm browser existed before
   * its session: its byte count starts afresh, so bytes from before the session are not its.
   */
  useSessionEgress(egress: { routes: readonly UpstreamRoute[]; ownEndpoint: OwnEndpoint | null }): void {
    this.proxy?.useUpstreams(egress.routes);
    this.proxy?.setOwnEndpoint(egress.ownEndpoint);
    if (!this.launchedForSession) this.proxy?.takeBytes();
  }

  /** Bytes the browser exchanged with the network through its egress proxy since the last call. */
  takeProxyBytes(): number {
    return this.proxy?.takeBytes() ?? 0;
  }

  /** True while the browser process runs. */
  get alive(): boolean {
    return this.process.exit === null;
  }

  /**
   * Stops the browser and its proxy, and removes a temporary profile. A persistent profile is shut
   * down cleanly (so cookies reach the disk); a temporary one is killed at once. `keepDownloads` is
   * handed the Downloads folder once nothing of the browser runs any more, before its disk and
   * profile go (a failure there is its own to report). Uploads never outlive the browser, also in
   * a persistent profile. Idempotent: only the first call's `keepDownloads` is used.
   */
  dispose(keepDownloads?: (downloadsDir: string) => Promise<void>): Promise<void> {
    this.disposal ??= this.stop(keepDownloads);
    return this.disposal;
  }

  private async stop(keepDownloads?: (downloadsDir: string) => Promise<void>): Promise<void> {
    // Teardown is off the hot path: the dying browser gets the least CPU weight first.
    await this.lease?.cgroup?.yieldCpu();
    if (this.temporary) await this.process.kill();
    else await this.process.stopGracefully(PERSISTENT_SHUTDOWN_GRACE_MS);
    // An exit we did not ask for may be the kernel's OOM kill: logged before the logs are archived.
    await this.lease?.check();
    this.cdp.close();
    await this.proxy?.close();
    await this.lease?.endProcesses();
    await keepDownloads?.(this.downloadsDir);
    if (!this.temporary && !this.stage) await rm(this.uploadsDir, { recursive: true, force: true });
    // A session's extension is not part of its context: never saved back, never left in place.
    if (this.extensionDir && !this.temporary) await rm(this.extensionDir, { recursive: true, force: true });
    if (this.stage)
      await saveStagedProfile(this.profileDir, this.stage.contextDir, this.owner).catch((error: unknown) =>
        this.recorder.recordServiceEvent('Browserdeck.profileNotSaved', { reason: String(error) }),
      );
    await this.lease?.release();
    await (this.temporary ?? this.stage?.profiles)?.remove(this.profileDir);
  }
}
