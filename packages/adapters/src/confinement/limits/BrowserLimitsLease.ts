import type { BrowserCgroup } from './BrowserCgroup.ts';
import { startCleanupWatchdog } from './cleanupWatchdog.ts';
import type { SessionDisks } from './SessionDisks.ts';

/** How often a running browser's cgroup is checked for an OOM kill (v1 has no notification we can use). */
const OOM_POLL_MS = 250;

/** Why the provider ended a browser for one of its limits (`Browserdeck.browserKilled`). */
export interface LimitKill {
  readonly reason: 'memory_limit';
  readonly limitBytes: number;
}

/**
 * The limits applied to one browser: its cgroup (null when none is in force) and its disk (a tmpfs
 * on its profile folder). `watchMemory` reports, once, that the kernel killed a process of it at
 * its memory limit; `release` kills what is left in the cgroup, removes it and unmounts the disk.
 */
export class BrowserLimitsLease {
  readonly cgroup: BrowserCgroup | null;
  private readonly disk: { disks: SessionDisks; dir: string } | null;
  private readonly onReleased: (lease: BrowserLimitsLease) => void;
  private onKill: ((kill: LimitKill) => void) | null = null;
  private reported = false;
  private timer: NodeJS.Timeout | null = null;
  private ending: Promise<void> | null = null;
  private releasing: Promise<void> | null = null;
  /** Cleans up if the service is killed outright (`cleanupWatchdog.ts`); cancelled once released. */
  private readonly cancelWatchdog: (() => void) | null;

  constructor(parts: {
    cgroup: BrowserCgroup | null;
    disk: { disks: SessionDisks; dir: string } | null;
    onReleased: (lease: BrowserLimitsLease) => void;
  }) {
    this.cgroup = parts.cgroup;
    this.disk = parts.disk;
    this.onReleased = parts.onReleased;
    this.cancelWatchdog = startCleanupWatchdog(this.disk?.dir ?? null, this.cgroup?.dirs ?? []);
  }

  /** The files the browser's launcher writes its pid to, to start inside the cgroup. */
  get procsFiles(): string[] {
    return this.cgroup?.procsFiles ?? [];
  }

  /**
   * Calls `onKill` once the kernel has OOM-killed a process of the browser (on cgroup v1 it kills
   * the biggest one, usually a renderer: the caller then kills the rest). Checked every 250 ms and
   * on `check`.
   */
  watchMemory(onKill: (kill: LimitKill) => void): void {
    if (this.cgroup?.memoryLimitBytes == null) return;
    this.onKill = onKill;
    this.timer = setInterval(() => void this.check(), OOM_POLL_MS);
    this.timer.unref();
  }

  /** Checks for an OOM kill now (once the browser has exited, before its cgroup goes). */
  async check(): Promise<void> {
    if (this.reported || !this.onKill || !this.cgroup) return;
    if ((await this.cgroup.oomKills()) === 0 || this.reported) return;
    this.reported = true;
    this.onKill({ reason: 'memory_limit', limitBytes: this.cgroup.memoryLimitBytes! });
  }

  /**
   * Kills what is left of the browser and removes its cgroup, leaving its disk mounted (a staged
   * profile is written back from it). Idempotent.
   */
  endProcesses(): Promise<void> {
    this.ending ??= (async () => {
      this.stopWatching();
      await this.cgroup?.remove();
    })();
    return this.ending;
  }

  /** `endProcesses`, then unmounts the disk (its contents are gone). Idempotent. */
  release(): Promise<void> {
    this.releasing ??= (async () => {
      // Processes first: one still holding the disk would keep it mounted.
      await this.endProcesses();
      if (this.disk) await this.disk.disks.unmount(this.disk.dir);
      this.cancelWatchdog?.();
      this.onReleased(this);
    })();
    return this.releasing;
  }

  /**
   * Kills the browser's processes, removes its cgroup (waiting up to `waitMs` for them to go) and
   * detaches its disk, all synchronously (for `process.on('exit')`).
   */
  releaseSync(waitMs: number): void {
    this.stopWatching();
    this.cgroup?.removeSync(waitMs);
    if (this.disk) this.disk.disks.unmountSync(this.disk.dir);
    this.cancelWatchdog?.();
  }

  private stopWatching(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
