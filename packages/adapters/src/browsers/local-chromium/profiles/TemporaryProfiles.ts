import { rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { type Logger, silentLogger } from '@browserdeck/domain';

/** Prefix of the temporary profile folders, under the provider's temporary folder. */
export const TEMP_PROFILE_PREFIX = 'browserdeck-profile-';

/**
 * A browser killed a moment ago may still be writing into its profile (its processes in a PID
 * namespace die shortly after the confinement's leader), so removal retries for up to ~5 s.
 */
const REMOVE_OPTIONS = { recursive: true, force: true, maxRetries: 10, retryDelay: 100 } as const;

/**
 * The temporary profile folders of one provider: created under `parentDir`, removed when their
 * browser stops, and every one still there removed by `removeAll` (the provider's `close`) or
 * `removeAllSync` (the process exiting without a `close`). A removal that fails is logged and kept
 * for the next sweep instead of failing the browser's shutdown.
 */
export class TemporaryProfiles {
  readonly parentDir: string;
  private readonly logger: Logger;
  private readonly dirs = new Set<string>();

  constructor(parentDir: string, logger: Logger = silentLogger) {
    this.parentDir = parentDir;
    this.logger = logger;
  }

  /** A fresh, empty profile folder. */
  async create(): Promise<string> {
    const dir = await mkdtemp(join(this.parentDir, TEMP_PROFILE_PREFIX));
    this.dirs.add(dir);
    return dir;
  }

  /** Removes one folder (best effort: a failure is logged, and the folder left for `removeAll`). */
  async remove(dir: string): Promise<void> {
    try {
      await rm(dir, REMOVE_OPTIONS);
      this.dirs.delete(dir);
    } catch (error) {
      this.logger.warn({ err: error, dir }, 'local provider: could not remove a temporary profile yet');
    }
  }

  /** Removes every folder still there. */
  async removeAll(): Promise<void> {
    await Promise.all([...this.dirs].map((dir) => this.remove(dir)));
  }

  /** Removes every folder still there, synchronously (for `process.on('exit')`). */
  removeAllSync(): void {
    for (const dir of this.dirs) {
      try {
        rmSync(dir, REMOVE_OPTIONS);
        this.dirs.delete(dir);
      } catch {
        // Exiting: nothing more can be done.
      }
    }
  }

  /** Folders created and not yet removed. */
  get remaining(): readonly string[] {
    return [...this.dirs];
  }
}
