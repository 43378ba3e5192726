import { lstat, mkdir, readdir, rm, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { type Clock, type Logger, silentLogger } from '@browserdeck/domain';
import type { BlobStore } from '../../shared-state/BlobStore.ts';
import { completedDownloads } from './completedDownloads.ts';
import {
  pruneDownloadsOwners,
  readDownloadsOwner,
  removeDownloadsOwner,
  writeDownloadsOwner,
} from './downloadOwners.ts';
import { downloadsToEvict, type KeptDownloads } from './downloadsToEvict.ts';
import { moveDownloads } from './moveDownloads.ts';
import { SharedDownloads } from './SharedDownloads.ts';
import { zipDownloads } from './zipDownloads.ts';

/**
 * The defaults of `RetainedDownloads`' settings (`DOWNLOADS_RETENTION_SEC`, `DOWNLOADS_MAX_MB`;
 * `DOWNLOADS_MAX_MB_PER_OWNER` is half of `maxBytes` unless set).
 */
export const DOWNLOADS_DEFAULTS = {
  /** How long an ended session's downloads are kept: an hour. */
  retentionSec: 3600,
  /** All ended sessions' downloads kept together: 1 GiB. */
  maxBytes: 1024 * 1024 * 1024,
} as const;

/**
 * One account's share of the kept downloads when none is set: half of `maxBytes` (at least a byte,
 * when anything is kept), as `LOCAL_MAX_SESSIONS_PER_OWNER` is half of the sessions: one busy
 * account never holds the whole budget, and two can still fill it between them.
 */
export function defaultDownloadsMaxBytesPerOwner(maxBytes: number): number {
  return maxBytes > 0 ? Math.max(1, Math.floor(maxBytes / 2)) : 0;
}

/** How long an owner record without its folder waits before a sweep forgets it (a move under way). */
const OWNER_RECORD_GRACE_MS = 10 * 60_000;

/** How often the sweep runs at most (sooner with a shorter retention). */
const SWEEP_EVERY_MS = 60_000;

/** Provider session ids are UUIDs: a name that is not one never names a folder here. */
const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The downloads of ended local sessions, kept in `<dataDir>/downloads/<providerSessionId>/` (0700)
 * for `retentionSec` after the session ended, each account's within `maxBytesPerOwner` and all of
 * them within `maxBytes`, the ceiling (`downloadsToEvict`: past its own share an account's oldest go
 * first; past the ceiling, the oldest of the account holding the most, never those of an account
 * within its share). The account of each folder is recorded beside it (`downloadOwners.ts`). When a
 * session ends its Downloads folder is moved here before the profile is removed (renamed on the same
 * file system, then pruned to its completed downloads, what the budgets count; else its completed
 * downloads are copied, up to the account's share). A sweep removes what is past its time; the
 * folders outlive a restart of the service. Several instances on one data folder share the folder,
 * its budgets and its sweep. A retention or a budget of 0 keeps nothing: no timer runs, and what an
 * earlier run kept goes at start and at each session's end. With a `blobs` store, each kept folder's
 * zip is also written there (`SharedDownloads`), goes with the folder, and serves the sessions this
 * instance neither holds nor keeps (another instance's, also once that one has stopped).
 */
export class RetainedDownloads {
  readonly dir: string;
  private readonly retentionMs: number;
  private readonly maxBytes: number;
  private readonly maxBytesPerOwner: number;
  private readonly clock: Clock;
  private readonly logger: Logger;
  /** The zips every instance reads, when there is a shared store. */
  private readonly shared: SharedDownloads | null;
  /** Sessions whose downloads are being moved here: a read waits for the move. */
  private readonly moving = new Map<string, Promise<void>>();
  private timer: NodeJS.Timeout | null = null;
  private sweeping: Promise<void> | null = null;

  constructor(options: {
    dataDir: string;
    retentionSec?: number | undefined;
    maxBytes?: number | undefined;
    /** One account's share (`DOWNLOADS_MAX_MB_PER_OWNER`); default half of `maxBytes`, at most `maxBytes`. */
    maxBytesPerOwner?: number | undefined;
    clock: Clock;
    logger?: Logger | undefined;
    /** Where the kept downloads are shared with the other instances (absent: this folder only). */
    blobs?: BlobStore | undefined;
  }) {
    this.dir = join(options.dataDir, 'downloads');
    this.retentionMs = (options.retentionSec ?? DOWNLOADS_DEFAULTS.retentionSec) * 1000;
    this.maxBytes = options.maxBytes ?? DOWNLOADS_DEFAULTS.maxBytes;
    this.maxBytesPerOwner = Math.min(
      this.maxBytes,
      options.maxBytesPerOwner ?? defaultDownloadsMaxBytesPerOwner(this.maxBytes),
    );
    this.clock = options.clock;
    this.logger = options.logger ?? silentLogger;
    this.shared = options.blobs ? new SharedDownloads({ blobs: options.blobs, logger: this.logger }) : null;
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
   * function that moves them from `downloadsDir` (null: there is nothing to keep), counted against
   * `ownerId`'s share. Call it exactly once, after the browser has stopped writing and before its
   * folder goes; later calls do nothing.
   */
  hold(providerSessionId: string, ownerId: string): (downloadsDir: string | null) => Promise<void> {
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
        if (downloadsDir && this.keeps) await this.keep(providerSessionId, ownerId, downloadsDir);
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
   * A zip of an ended session's kept downloads (see `zipDownloads`), once they are here, else as the
   * shared store holds them (a session this instance never kept); null when none are kept for it
   * (never any, or past their time).
   */
  async archive(providerSessionId: string): Promise<AsyncIterable<Uint8Array> | null> {
    if (!this.keeps || !SESSION_ID.test(providerSessionId)) return null;
    await this.moving.get(providerSessionId);
    const folder = join(this.dir, providerSessionId);
    const kept = await lstat(folder).catch(() => null);
    if (kept?.isDirectory()) return this.expired(kept.mtime) ? null : zipDownloads(folder);
    return this.shared ? this.shared.read(providerSessionId, this.keptSince()) : null;
  }

  /** Removes the folders past their time, then those `downloadsToEvict` names for the budgets. */
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

  private async keep(providerSessionId: string, ownerId: string, downloadsDir: string): Promise<void> {
    if (!SESSION_ID.test(providerSessionId)) return;
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    await writeDownloadsOwner(this.dir, providerSessionId, ownerId, this.clock.now());
    const folder = join(this.dir, providerSessionId);
    const skipped = await moveDownloads(downloadsDir, folder, this.maxBytesPerOwner);
    if (skipped > 0)
      this.logger.warn(
        { providerSessionId, skipped, maxBytesPerOwner: this.maxBytesPerOwner },
        'local provider: downloads past the account’s share (DOWNLOADS_MAX_MB_PER_OWNER) were not kept',
      );
    await this.stamp(folder);
    await this.share(providerSessionId, folder);
  }

  /**
   * Shares the kept folder's zip with the other instances, unless the folder alone is past the
   * account's share: the sweep that follows evicts it.
   */
  private async share(providerSessionId: string, folder: string): Promise<void> {
    if (!this.shared) return;
    const bytes = (await completedDownloads(folder)).reduce((sum, file) => sum + file.size, 0);
    if (bytes <= this.maxBytesPerOwner) await this.shared.store(providerSessionId, folder);
  }

  /** Dates the folder when its session ended: the retention counts from it. */
  private async stamp(folder: string): Promise<void> {
    const now = this.clock.now();
    await utimes(folder, now, now);
  }

  /** Whether anything is kept past a session: not with a retention or a budget of 0. */
  private get keeps(): boolean {
    return this.retentionMs > 0 && this.maxBytes > 0 && this.maxBytesPerOwner > 0;
  }

  private expired(keptAt: Date): boolean {
    return this.clock.now().getTime() - keptAt.getTime() >= this.retentionMs;
  }

  /** Downloads kept before this are past their time (kept `retentionMs` ago or earlier, as `expired` says). */
  private keptSince(): Date {
    return new Date(this.clock.now().getTime() - this.retentionMs + 1);
  }

  private async sweepOnce(): Promise<void> {
    const names = await readdir(this.dir).catch(() => [] as string[]);
    const kept: KeptDownloads[] = [];
    const present = new Set(this.moving.keys());
    for (const name of names) {
      if (!SESSION_ID.test(name) || this.moving.has(name)) continue;
      const stats = await lstat(join(this.dir, name)).catch(() => null);
      if (!stats?.isDirectory()) continue;
      if (!this.keeps || this.expired(stats.mtime)) {
        await this.remove(name);
        continue;
      }
      present.add(name);
      const bytes = (await completedDownloads(join(this.dir, name))).reduce(
        (sum, file) => sum + file.size,
        0,
      );
      const owner = await readDownloadsOwner(this.dir, name);
      kept.push({ id: name, owner, at: stats.mtime.getTime(), bytes });
    }
    const budget = { maxBytes: this.maxBytes, maxBytesPerOwner: this.maxBytesPerOwner };
    for (const entry of downloadsToEvict(kept, budget)) {
      await this.remove(entry.id);
      present.delete(entry.id);
    }
    const graceOver = new Date(this.clock.now().getTime() - OWNER_RECORD_GRACE_MS);
    await pruneDownloadsOwners(this.dir, present, graceOver);
    // Shared ones past their time, those of stopped instances included.
    await this.shared?.sweep(this.keptSince());
  }

  /** Removes one session's kept downloads, and the record of whose they were. */
  private async remove(providerSessionId: string): Promise<void> {
    await rm(join(this.dir, providerSessionId), { recursive: true, force: true });
    await removeDownloadsOwner(this.dir, providerSessionId);
    await this.shared?.remove(providerSessionId);
  }
}
