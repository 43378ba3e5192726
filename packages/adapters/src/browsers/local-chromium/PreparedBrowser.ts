import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Clock } from '@browserdeck/domain';
import { CdpClient } from './CdpClient.ts';
import { ChromiumProcess } from './ChromiumProcess.ts';
import { SessionLogRecorder } from './SessionLogRecorder.ts';

/** Prefix of the temporary profile folders, under the provider's temporary folder. */
export const TEMP_PROFILE_PREFIX = 'browserdeck-profile-';

/** Which profile a browser runs with. */
export type ProfileChoice =
  | { readonly kind: 'temporary'; readonly parentDir: string }
  | { readonly kind: 'persistent'; readonly dir: string };

/** How long a browser with a persistent profile may take to shut down cleanly. */
const PERSISTENT_SHUTDOWN_GRACE_MS = 5_000;

/**
 * A running browser with the provider's own CDP connection and log recorder attached: what a
 * session (or the warm pool) holds.
 */
export class PreparedBrowser {
  readonly process: ChromiumProcess;
  readonly cdp: CdpClient;
  readonly recorder: SessionLogRecorder;
  /** True for a fresh temporary profile, removed when the browser stops. */
  readonly temporary: boolean;
  private disposal: Promise<void> | null = null;

  private constructor(
    process: ChromiumProcess,
    cdp: CdpClient,
    recorder: SessionLogRecorder,
    temporary: boolean,
  ) {
    this.process = process;
    this.cdp = cdp;
    this.recorder = recorder;
    this.temporary = temporary;
  }

  /** Starts a browser, connects to it and starts recording. Cleans up everything if a step fails. */
  static async launch(options: {
    executablePath: string;
    profile: ProfileChoice;
    clock: Clock;
    logBufferSize: number;
  }): Promise<PreparedBrowser> {
    const temporary = options.profile.kind === 'temporary';
    const profileDir =
      options.profile.kind === 'temporary'
        ? await mkdtemp(join(options.profile.parentDir, TEMP_PROFILE_PREFIX))
        : options.profile.dir;
    if (!temporary) await mkdir(profileDir, { recursive: true });
    let process: ChromiumProcess | null = null;
    try {
      process = await ChromiumProcess.launch({ executablePath: options.executablePath, profileDir });
      const cdp = await CdpClient.connect(process.wsUrl);
      const recorder = new SessionLogRecorder({ cdp, clock: options.clock, capacity: options.logBufferSize });
      await recorder.start();
      return new PreparedBrowser(process, cdp, recorder, temporary);
    } catch (error) {
      await process?.kill();
      if (temporary) await removeProfile(profileDir);
      throw error;
    }
  }

  /** The browser's profile folder. */
  get profileDir(): string {
    return this.process.profileDir;
  }

  /** True while the browser process runs. */
  get alive(): boolean {
    return this.process.exit === null;
  }

  /**
   * Stops the browser and removes a temporary profile. A persistent profile is shut down cleanly
   * (so cookies reach the disk); a temporary one is killed at once. Idempotent.
   */
  dispose(): Promise<void> {
    this.disposal ??= this.stop();
    return this.disposal;
  }

  private async stop(): Promise<void> {
    this.cdp.close();
    if (this.temporary) await this.process.kill();
    else await this.process.stopGracefully(PERSISTENT_SHUTDOWN_GRACE_MS);
    if (this.temporary) await removeProfile(this.profileDir);
  }
}

async function removeProfile(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
}
