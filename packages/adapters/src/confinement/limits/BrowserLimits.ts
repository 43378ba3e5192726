import { readFile } from 'node:fs/promises';
import { type Logger, silentLogger } from '@browserdeck/domain';
import { BrowserCgroups, type LimitNotInForce } from './BrowserCgroups.ts';
import { BrowserLimitsLease } from './BrowserLimitsLease.ts';
import { type CgroupLayout, cgroupLayout } from './cgroupLayout.ts';
import type { ResourceLimits } from './ResourceLimits.ts';
import { SessionDisks } from './SessionDisks.ts';

/** How long an exiting service waits, in all, for its browsers' processes to leave their cgroups. */
const EXIT_WAIT_MS = 500;

/** A limit not in force on this host (the disk too), and why. */
export interface ResourceLimitNotInForce {
  readonly limit: LimitNotInForce['limit'] | 'disk';
  readonly reason: string;
}

/**
 * The resource limits of one provider's browsers, set up once (`setUp`): each browser's cgroup
 * (`BrowserCgroups`: memory, tasks, CPU weight) and its size-limited writable space (`SessionDisks`
 * for the profile; the sandbox's `/tmp` and `/dev/shm` are sized by the confinement). `lease`
 * applies them to one browser. What this host cannot enforce is in `notInForce`, and the browsers
 * run without it.
 */
export class BrowserLimits {
  /** The limits asked for (those in `notInForce` are not applied). */
  readonly limits: ResourceLimits;
  readonly notInForce: readonly ResourceLimitNotInForce[];
  /** The cgroup version in use; null when no cgroup limit is in force. */
  readonly cgroupVersion: 1 | 2 | null;
  private readonly cgroups: BrowserCgroups | null;
  private readonly disks: SessionDisks | null;
  private readonly leases = new Set<BrowserLimitsLease>();

  private constructor(parts: {
    limits: ResourceLimits;
    notInForce: ResourceLimitNotInForce[];
    cgroups: BrowserCgroups | null;
    disks: SessionDisks | null;
  }) {
    this.limits = parts.limits;
    this.notInForce = parts.notInForce;
    this.cgroups = parts.cgroups;
    this.disks = parts.disks;
    this.cgroupVersion = parts.cgroups?.version ?? null;
  }

  /** No limits at all (browsers launched outside a provider, in tests). */
  static none(): BrowserLimits {
    return new BrowserLimits({
      limits: { memoryBytes: null, pids: null, cpuWeight: null, diskBytes: null },
      notInForce: [],
      cgroups: null,
      disks: null,
    });
  }

  /**
   * Puts `limits` in force as far as this host allows: the cgroup layout comes from
   * /proc/self/mountinfo and /proc/self/cgroup unless `layout` is given.
   */
  static async setUp(options: {
    limits: ResourceLimits;
    logger?: Logger;
    layout?: CgroupLayout | null;
  }): Promise<BrowserLimits> {
    const logger = options.logger ?? silentLogger;
    const layout =
      options.layout !== undefined
        ? options.layout
        : cgroupLayout(
            await readFile('/proc/self/mountinfo', 'utf8').catch(() => ''),
            await readFile('/proc/self/cgroup', 'utf8').catch(() => ''),
          );
    const { cgroups, notInForce } = await BrowserCgroups.setUp({ layout, limits: options.limits, logger });
    const problems: ResourceLimitNotInForce[] = [...notInForce];
    let disks: SessionDisks | null = null;
    if (options.limits.diskBytes !== null) {
      const disk = await SessionDisks.setUp({ bytes: options.limits.diskBytes, logger });
      disks = disk.disks;
      if (disk.problem) problems.push({ limit: 'disk', reason: disk.problem });
    }
    return new BrowserLimits({ limits: options.limits, notInForce: problems, cgroups, disks });
  }

  /** True when each browser's profile gets a size-limited disk of its own. */
  get limitsDisk(): boolean {
    return this.disks !== null;
  }

  /** The size of the sandbox's own `/tmp`, `/var/tmp` and `/dev/shm`; null for the default. */
  get tmpfsBytes(): number | null {
    return this.limits.diskBytes;
  }

  /** For the start-up log line. */
  describe(): Record<string, unknown> {
    const mib = (bytes: number | null) => (bytes === null ? 'off' : `${Math.round(bytes / 1024 / 1024)} MiB`);
    return {
      memory: mib(this.limits.memoryBytes),
      pids: this.limits.pids ?? 'off',
      cpuWeight: this.limits.cpuWeight ?? 'off',
      disk: mib(this.limits.diskBytes),
      cgroup: this.cgroupVersion === null ? 'none' : `v${this.cgroupVersion}`,
      notInForce: this.notInForce.map((p) => `${p.limit}: ${p.reason}`),
    };
  }

  /**
   * Applies the limits to one browser about to start on `profileDir`: mounts its disk on the folder
   * (when `withDisk`: the folder must be a fresh, empty one) and creates its cgroup. Undone by the
   * lease's `release`.
   */
  async lease(
    profileDir: string,
    owner: { uid: number; gid: number } | null,
    withDisk: boolean,
  ): Promise<BrowserLimitsLease> {
    let mounted = false;
    try {
      if (this.disks && withDisk) {
        await this.disks.mount(profileDir, owner);
        mounted = true;
      }
      const cgroup = this.cgroups ? await this.cgroups.create() : null;
      const lease = new BrowserLimitsLease({
        cgroup,
        disk: mounted ? { disks: this.disks!, dir: profileDir } : null,
        onReleased: (l) => this.leases.delete(l),
      });
      this.leases.add(lease);
      return lease;
    } catch (error) {
      if (mounted) await this.disks!.unmount(profileDir);
      throw error;
    }
  }

  /**
   * Kills every limited browser, removes the cgroups and detaches the disks at once (for
   * `process.on('exit')`: a cgroup left behind would keep the service's own from being removed).
   */
  releaseAllSync(): void {
    const deadline = Date.now() + EXIT_WAIT_MS;
    for (const lease of this.leases) lease.releaseSync(Math.max(0, deadline - Date.now()));
    this.cgroups?.closeSync();
  }

  /** Removes the provider's cgroup folders (every lease released first). */
  async close(): Promise<void> {
    await Promise.all([...this.leases].map((lease) => lease.release()));
    await this.cgroups?.close();
  }
}
