import { lstat, mkdir, readdir, rename, rm, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { type Clock, type Logger, silentLogger } from '@browserdeck/domain';
import { completedDownloads } from './completedDownloads.ts';
import { copyDownloads } from './copyDownloads.ts';
import { pruneDownloads } from './pruneDownloads.ts';
import { zipDownloads } from './zipDownloads.ts';

/** The defaults of `RetainedDownloads`' settings (`DOWNLOADS_RETENTION_SEC`, `DOWNLOADS_MAX_MB`). */
export const DOWNLOADS_DEFAULTS = {
  /** How long an ended session's downloads are kept: an hour. */
  retentionSec: 3600,
  /** All ended sessions' downloads kept together: 1 GiB. */
  maxBytes: 1024 * 1024 * 1024,
} as const;

/** How often the sweep runs at most (sooner with a shorter retention). */
const SWEEP_EVERY_MS = 60_000;

/** Provider session ids are UUIDs: a name that is not one never names a folder here. */
const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The downloads of ended local sessions, kept in `<dataDir>/downloads/<providerSessionId>/` (0700)
 * for `retentionSec` after the session ended, all of them within `maxBytes` (past it the oldest
 * sessions' go first). When a session ends its Downloads folder is moved here before the profile is
 * removed (renamed on the same file system, then pruned to its completed downloads, what the budget
 * counts; else its completed downloads are copied, up to `maxBytes`). A sweep removes what is past
 * its time; the folders outlive a restart of the service. Several instances on one data folder share
 * the folder, its budget and its sweep. A retention or a budget of 0 keeps nothing: no timer runs,
 * and what an earlier run kept goes at start and at each session's end.
 */
export class RetainedDownloads {
  readonly dir: string;
  private readonly retentionMs: number;
  private readonly maxBytes: number;
  private readonly clock: Clock;
  private readonly logger: Logger;
  /** Sessions whose downloads are being moved here: a read waits for the move. */
  private readonly moving = new Map<string, Promise<void>>();
  private timer: NodeJS.Timeout | null = null;
  private sweeping: Promise<void> | null = null;

  constructor(options: {
    dataDir: string;
    retentionSec?: number | undefined;
    maxBytes?: number | undefined;
    clock: Clock;
    logger?: Logger | undefined;
  }) {
    this.dir = join(options.dataDir, 'downloads');
    this.retentionMs = (options.retentionSec ?? DOWNLOADS_DEFAULTS.retentionSec) * 1000;
    this.maxBytes = options.maxBytes ?? DOWNLOADS_DEFAULTS.maxBytes;
    this.clock = options.clock;
    this.logger = options.logger ?? silentLogger;
  }

  /**
   * Sweeps now and then every minute (or sooner with a short retention), until `stop`. Keeping
   * nothing, only the sweep now (of what an earlier run kept): each session's end sweeps again.
   */
  start(): void {
    void this.sweep();
    if (!this.keeps) return;
    const every = Math.max(1000, Math.min(SWEEP_EVERY_MS, this.retentionMs / 2));
    this.timer = setInterval(() => void this.sweep(), every);
    this.timer.unref();
  }

  /** Stops the sweeps; waits for moves and a sweep under way. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await Promise.allSettled([...this.moving.values(), this.sweeping]);
  }

  /**
   * Marks a session's downloads as on their way here (a read waits until they are), and answers the
   * function that moves them from `downloadsDir` (null: there is nothing to keep). Call it exactly
   * once, after the browser has stopped writing and before its folder goes; later calls do nothing.
   */
  hold(providerSessionId: string): (downloadsDir: string | null) => Promise<void> {
    let settle: () => void = () => {};
    const moved = new Promise<void>((resolve) => {
      settle = resolve;
    });
    this.moving.set(providerSessionId, moved);
    let called = false;
    return async (downloadsDir) => {
      if (called) return;
      called = true;
      try {
        if (downloadsDir && this.keeps) await this.keep(providerSessionId, downloadsDir);
      } catch (error) {
        this.logger.warn(
          { err: error, providerSessionId },
          'local provider: could not keep a session’s downloads',
        );
      } finally {
        this.moving.delete(providerSessionId);
        settle();
      }
      // Once it counts with the others: the budget may now send older sessions' downloads.
      await this.sweep();
    };
  }

  /**
   * A zip of an ended session's kept downloads (see `zipDownloads`), once they are here; null when
   * none are kept for it (never any, or past their time).
   */
  async archive(providerSessionId: string): Promise<AsyncIterable<Uint8Array> | null> {
    if (!this.keeps || !SESSION_ID.test(providerSessionId)) return null;
    await this.moving.get(providerSessionId);
    const folder = join(this.dir, providerSessionId);
    const kept = await lstat(folder).catch(() => null);
    if (!kept?.isDirectory() || this.expired(kept.mtime)) return null;
    return zipDownloads(folder);
  }

  /** Removes the folders past their time, then the oldest ones until the rest fit `maxBytes`. */
  sweep(): Promise<void> {
    this.sweeping ??= this.sweepOnce()
      .catch((error: unknown) =>
        this.logger.warn({ err: error }, 'local provider: the downloads sweep failed'),
      )
      .finally(() => {
        this.sweeping = null;
      });
    return this.sweeping;
  }

  private async keep(providerSessionId: string, downloadsDir: string): Promise<void> {
    if (!SESSION_ID.test(providerSessionId)) return;
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    // Kept even when empty: the session's zip is then an empty one for the retention period, not a 404.
    const folder = join(this.dir, providerSessionId);
    let code: string | undefined;
    try {
      await rename(downloadsDir, folder);
    } catch (error) {
      code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EXDEV' && code !== 'ENOENT') throw error;
    }
    if (code === undefined) {
      await this.settleMoved(folder);
    } else {
      // No Downloads folder at all (ENOENT): kept as an empty one.
      await mkdir(folder, { mode: 0o700 });
      // Another file system (a temporary or size-limited profile): the completed files are copied.
      const skipped = code === 'EXDEV' ? await copyDownloads(downloadsDir, folder, this.maxBytes) : 0;
      if (skipped > 0)
        this.logger.warn(
          { providerSessionId, skipped, maxBytes: this.maxBytes },
          'local provider: downloads past DOWNLOADS_MAX_MB were not kept',
        );
    }
    await this.stamp(folder);
  }

  /**
   * Keeps of a folder renamed here only what the budget counts and the zip serves (`pruneDownloads`):
   * its partial files, folders, links, FIFOs… would otherwise outlive the session uncounted.
   */
  private async settleMoved(folder: string): Promise<void> {
    // The browser's user may have left a link where its Downloads folder was: nothing is kept then.
    if (!(await lstat(folder)).isDirectory()) {
      await rm(folder, { force: true });
      await mkdir(folder, { mode: 0o700 });
      return;
    }
    try {
      await pruneDownloads(folder);
    } catch (error) {
      // What could not be pruned would be kept uncounted: nothing is kept instead.
      await rm(folder, { recursive: true, force: true });
      throw error;
    }
  }

  /** Dates the folder when its session ended: the retention counts from it. */
  private async stamp(folder: string): Promise<void> {
    const now = this.clock.now();
    await utimes(folder, now, now);
  }

  /** Whether anything is kept past a session: not with a retention or a budget of 0. */
  private get keeps(): boolean {
    return this.retentionMs > 0 && this.maxBytes > 0;
  }

  private expired(keptAt: Date): boolean {
    return this.clock.now().getTime() - keptAt.getTime() >= this.retentionMs;
  }

  private async sweepOnce(): Promise<void> {
    const names = await readdir(this.dir).catch(() => [] as string[]);
    const kept: Array<{ folder: string; at: number; bytes: number }> = [];
    for (const name of names) {
      if (!SESSION_ID.test(name) || this.moving.has(name)) continue;
      const folder = join(this.dir, name);
      const stats = await lstat(folder).catch(() => null);
      if (!stats?.isDirectory()) continue;
      if (!this.keeps || this.expired(stats.mtime)) {
        await rm(folder, { recursive: true, force: true });
        continue;
      }
      const bytes = (await completedDownloads(folder)).reduce((sum, file) => sum + file.size, 0);
      kept.push({ folder, at: stats.mtime.getTime(), bytes });
    }
    let total = kept.reduce((sum, entry) => sum + entry.bytes, 0);
    for (const entry of kept.sort((a, b) => a.at - b.at)) {
      if (total <= this.maxBytes) break;
      await rm(entry.folder, { recursive: true, force: true });
      total -= entry.bytes;
    }
  }
}
