import { mkdir } from 'node:fs/promises';
import type { Clock, SessionViewport } from '@browserdeck/domain';
import { CdpClient } from '../cdp/CdpClient.ts';
import { ChromiumProcess } from './ChromiumProcess.ts';
import { CdpRouter } from './cdp/CdpRouter.ts';
import { downloadsDirOf } from './cdpCommandPolicy.ts';
import { copyContextProfile } from './copyContextProfile.ts';
import type { EgressPolicy } from './egress/EgressPolicy.ts';
import { EgressProxy } from './egress/EgressProxy.ts';
import type { BrowserConfinement } from './isolation/BrowserConfinement.ts';
import { SessionLogRecorder } from './SessionLogRecorder.ts';
import type { TemporaryProfiles } from './TemporaryProfiles.ts';

/**
 * Which profile a browser runs with: a fresh folder of `profiles`, a persistent folder, or a fresh
 * folder of `profiles` holding a copy of the persistent folder `from` (nothing is saved back).
 */
export type ProfileChoice =
  | { readonly kind: 'temporary'; readonly profiles: TemporaryProfiles }
  | { readonly kind: 'persistent'; readonly dir: string }
  | { readonly kind: 'copy'; readonly profiles: TemporaryProfiles; readonly from: string };

/** How long a browser with a persistent profile may take to shut down cleanly. */
const PERSISTENT_SHUTDOWN_GRACE_MS = 5_000;

/** Everything a browser launch needs besides its profile. */
export interface BrowserLaunchSettings {
  readonly executablePath: string;
  readonly confinement: BrowserConfinement;
  /** What the browser may reach through its egress proxy; null runs without one (tests of the proxy-less path only). */
  readonly egress: EgressPolicy | null;
  readonly clock: Clock;
  readonly logBufferSize: number;
  /** The window (and page) size; null or absent for Chromium's default. */
  readonly windowSize?: SessionViewport | null;
}

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
  private disposal: Promise<void> | null = null;

  private constructor(parts: {
    process: ChromiumProcess;
    router: CdpRouter;
    cdp: CdpClient;
    recorder: SessionLogRecorder;
    temporary: TemporaryProfiles | null;
    proxy: EgressProxy | null;
  }) {
    this.process = parts.process;
    this.router = parts.router;
    this.cdp = parts.cdp;
    this.recorder = parts.recorder;
    this.temporary = parts.temporary;
    this.proxy = parts.proxy;
  }

  /** Starts a browser, connects to it and starts recording. Cleans up everything if a step fails. */
  static async launch(
    settings: BrowserLaunchSettings & { profile: ProfileChoice },
  ): Promise<PreparedBrowser> {
    const { profile } = settings;
    const temporary = profile.kind === 'persistent' ? null : profile.profiles;
    const profileDir = profile.kind === 'persistent' ? profile.dir : await profile.profiles.create();
    let process: ChromiumProcess | null = null;
    let proxy: EgressProxy | null = null;
    try {
      if (profile.kind === 'copy')
        await copyContextProfile(profile.from, profileDir, settings.confinement.user);
      await mkdir(downloadsDirOf(profileDir), { recursive: true });
      await settings.confinement.claim(profileDir);
      await settings.confinement.claim(downloadsDirOf(profileDir));
      const recorder = new SessionLogRecorder({ clock: settings.clock, capacity: settings.logBufferSize });
      if (settings.egress)
        proxy = await EgressProxy.start({
          policy: settings.egress,
          onRefused: (r) => recorder.recordEgressRefusal(r),
        });
      process = await ChromiumProcess.launch({
        executablePath: settings.executablePath,
        profileDir,
        confinement: settings.confinement,
        proxyUrl: proxy?.url ?? null,
        windowSize: settings.windowSize ?? null,
      });
      const router = new CdpRouter(process.pipe);
      const cdp = new CdpClient();
      cdp.attach(router.openRoot(cdp.receive, cdp.receiveClose));
      await recorder.start(cdp);
      return new PreparedBrowser({ process, router, cdp, recorder, temporary, proxy });
    } catch (error) {
      await process?.kill();
      await proxy?.close();
      await temporary?.remove(profileDir);
      throw error;
    }
  }

  /** The browser's profile folder. */
  get profileDir(): string {
    return this.process.profileDir;
  }

  /** Where the browser's downloads go, and the only folder a client may name files in. */
  get downloadsDir(): string {
    return downloadsDirOf(this.profileDir);
  }

  /** True while the browser process runs. */
  get alive(): boolean {
    return this.process.exit === null;
  }

  /**
   * Stops the browser and its proxy, and removes a temporary profile. A persistent profile is shut
   * down cleanly (so cookies reach the disk); a temporary one is killed at once. Idempotent.
   */
  dispose(): Promise<void> {
    this.disposal ??= this.stop();
    return this.disposal;
  }

  private async stop(): Promise<void> {
    if (this.temporary) await this.process.kill();
    else await this.process.stopGracefully(PERSISTENT_SHUTDOWN_GRACE_MS);
    this.cdp.close();
    await this.proxy?.close();
    await this.temporary?.remove(this.profileDir);
  }
}
