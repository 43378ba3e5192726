import { rmdirSync } from 'node:fs';
import { mkdir, readdir, readFile, rmdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { type Logger, silentLogger } from '@browserdeck/domain';
import { BrowserCgroup, type RemoveCgroupDir } from './BrowserCgroup.ts';
import type { CgroupLayout, LimitController } from './cgroupLayout.ts';
import { cpuWeightSetting } from './cpuWeightSetting.ts';
import { isProcessAlive } from './isProcessAlive.ts';
import type { ResourceLimits } from './ResourceLimits.ts';

/** Folders of one provider's browsers: `browserdeck-<service pid>-<n>` (stale ones are swept by pid). */
const GROUP_PATTERN = /^browserdeck-(\d+)-\d+$/;
let groupsMade = 0;

/** A limit that could not be put in force on this host, and why. */
export interface LimitNotInForce {
  readonly limit: 'memory' | 'pids' | 'cpu';
  readonly reason: string;
}

/**
 * The cgroups of one provider's browsers. Each browser gets a cgroup of its own (`create`) with
 * the memory limit (no swap beyond it), the task limit and the CPU weight in force:
 *
 * - cgroup v2: under the parent of the service's cgroup, in `browserdeck-<pid>-<n>/browser-<m>`: the
 *   service's own cgroup holds processes, and v2's "no internal processes" rule forbids enabling
 *   controllers for children of such a cgroup. The controllers are enabled in the parent's and the
 *   group's `cgroup.subtree_control`; `memory.oom.group` makes the kernel kill the whole browser.
 * - cgroup v1 (no such rule): under the service's own cgroup of each hierarchy, so whatever limit
 *   the host put on the service (a systemd unit, a container) still bounds its browsers too.
 *
 * A limit whose controller is missing, read-only or refused is reported by `setUp` and not applied.
 */
export class BrowserCgroups {
  readonly version: 1 | 2;
  /** The provider's group folder of each controller in force. */
  private readonly groups: ReadonlyMap<LimitController, string>;
  private readonly limits: ResourceLimits;
  private readonly logger: Logger;
  private readonly removeDir: RemoveCgroupDir;
  private made = 0;

  private constructor(
    version: 1 | 2,
    groups: ReadonlyMap<LimitController, string>,
    limits: ResourceLimits,
    logger: Logger,
    removeDir: RemoveCgroupDir,
  ) {
    this.version = version;
    this.groups = groups;
    this.limits = limits;
    this.logger = logger;
    this.removeDir = removeDir;
  }

  /**
   * Creates the provider's group folders for the limits in `limits` (sweeping empty groups of
   * services that are gone). `cgroups` is null when no limit could be put in force.
   */
  static async setUp(options: {
    layout: CgroupLayout | null;
    limits: ResourceLimits;
    logger?: Logger;
    removeDir?: RemoveCgroupDir;
  }): Promise<{ cgroups: BrowserCgroups | null; notInForce: LimitNotInForce[] }> {
    const { layout, limits } = options;
    const logger = options.logger ?? silentLogger;
    const removeDir = options.removeDir ?? ((dir: string) => rmdir(dir));
    const wanted: LimitController[] = [
      ...(limits.memoryBytes !== null ? (['memory'] as const) : []),
      ...(limits.pids !== null ? (['pids'] as const) : []),
      ...(limits.cpuWeight !== null ? (['cpu'] as const) : []),
    ];
    const notInForce: LimitNotInForce[] = [];
    const groups = new Map<LimitController, string>();
    if (!layout) {
      for (const limit of wanted)
        notInForce.push({ limit, reason: 'no writable cgroup file system is mounted' });
      return { cgroups: null, notInForce };
    }
    const name = `browserdeck-${process.pid}-${++groupsMade}`;
    if (layout.version === 2) {
      const base = layout.ownDir === layout.mountPoint ? layout.ownDir : dirname(layout.ownDir);
      await sweepStaleGroups(base, removeDir);
      const available = words(await readFile(join(base, 'cgroup.controllers'), 'utf8').catch(() => ''));
      const offered = wanted.filter((controller) => {
        if (available.includes(controller)) return true;
        notInForce.push({
          limit: controller,
          reason: `the ${controller} controller is not available in ${base}`,
        });
        return false;
      });
      const refused = await enableControllers(base, offered);
      const enabled = offered.filter((controller) => !refused.has(controller));
      for (const [limit, reason] of refused) notInForce.push({ limit, reason });
      if (enabled.length > 0) {
        const group = join(base, name);
        try {
          await mkdir(group);
          const refusedInGroup = await enableControllers(group, enabled);
          for (const controller of enabled) {
            const reason = refusedInGroup.get(controller);
            if (reason) notInForce.push({ limit: controller, reason });
            else groups.set(controller, group);
          }
        } catch (error) {
          for (const limit of enabled) notInForce.push({ limit, reason: describeError(error, group) });
        }
        if (groups.size === 0) await removeDir(group).catch(() => {});
      }
    } else {
      for (const controller of wanted) {
        const hierarchy = layout.v1[controller];
        if (!hierarchy) {
          notInForce.push({ limit: controller, reason: `no cgroup v1 ${controller} hierarchy is mounted` });
          continue;
        }
        await sweepStaleGroups(hierarchy.ownDir, removeDir);
        const group = join(hierarchy.ownDir, name);
        try {
          await mkdir(group);
          groups.set(controller, group);
        } catch (error) {
          notInForce.push({ limit: controller, reason: describeError(error, group) });
        }
      }
    }
    const cgroups =
      groups.size === 0 ? null : new BrowserCgroups(layout.version, groups, limits, logger, removeDir);
    return { cgroups, notInForce };
  }

  /** The limits in force (controllers that could be set up). */
  get controllers(): LimitController[] {
    return [...this.groups.keys()];
  }

  /**
   * A fresh cgroup for one browser with the limits written; the browser enters it through
   * `enterCgroupCommand`. Throws (leaving nothing behind) when a limit cannot be written.
   */
  async create(): Promise<BrowserCgroup> {
    const name = `browser-${++this.made}`;
    const byController = new Map([...this.groups].map(([c, group]) => [c, join(group, name)]));
    const dirs = [...new Set(byController.values())];
    const created: string[] = [];
    const cgroup = new BrowserCgroup({
      version: this.version,
      dirs,
      memoryDir: byController.get('memory') ?? null,
      memoryLimitBytes: byController.has('memory') ? this.limits.memoryBytes : null,
      logger: this.logger,
      removeDir: this.removeDir,
    });
    try {
      for (const dir of dirs) {
        await mkdir(dir);
        created.push(dir);
      }
      for (const [controller, dir] of byController) await this.writeLimit(controller, dir);
      return cgroup;
    } catch (error) {
      await Promise.all(created.map((dir) => this.removeDir(dir).catch(() => {})));
      throw error;
    }
  }

  /** Removes the provider's group folders (their browsers' cgroups must be gone). */
  async close(): Promise<void> {
    await Promise.all([...new Set(this.groups.values())].map((dir) => this.removeDir(dir).catch(() => {})));
  }

  /** `close` for `process.on('exit')`: best effort, at once. */
  closeSync(): void {
    for (const dir of new Set(this.groups.values()))
      try {
        rmdirSync(dir);
      } catch {
        // Exiting: a later service sweeps it.
      }
  }

  private async writeLimit(controller: LimitController, dir: string): Promise<void> {
    const { memoryBytes, pids, cpuWeight } = this.limits;
    const v2 = this.version === 2;
    if (controller === 'memory' && memoryBytes !== null) {
      await writeFile(join(dir, v2 ? 'memory.max' : 'memory.limit_in_bytes'), String(memoryBytes));
      // No swap beyond the limit; the files exist only where the kernel accounts swap.
      await optional(v2 ? writeFile(join(dir, 'memory.swap.max'), '0') : null);
      await optional(v2 ? null : writeFile(join(dir, 'memory.memsw.limit_in_bytes'), String(memoryBytes)));
      // v2: an OOM kills every process of the browser at once, not just its biggest renderer.
      await optional(v2 ? writeFile(join(dir, 'memory.oom.group'), '1') : null);
    }
    if (controller === 'pids' && pids !== null) await writeFile(join(dir, 'pids.max'), String(pids));
    if (controller === 'cpu' && cpuWeight !== null) {
      const [file, value] = cpuWeightSetting(this.version, cpuWeight);
      await writeFile(join(dir, file), value);
    }
  }
}

/**
 * Enables `controllers` for the children of `dir` (v2): all in one write, else one by one to learn
 * which the kernel refuses. Returns the refused ones with why.
 */
async function enableControllers(
  dir: string,
  controllers: readonly LimitController[],
): Promise<Map<LimitController, string>> {
  const file = join(dir, 'cgroup.subtree_control');
  const enabled = words(await readFile(file, 'utf8').catch(() => ''));
  const missing = controllers.filter((c) => !enabled.includes(c));
  const refused = new Map<LimitController, string>();
  if (missing.length === 0) return refused;
  try {
    await writeFile(file, missing.map((c) => `+${c}`).join(' '));
    return refused;
  } catch {
    for (const controller of missing)
      await writeFile(file, `+${controller}`).catch((error: unknown) =>
        refused.set(controller, describeError(error, file)),
      );
    return refused;
  }
}

/** Removes the browser cgroups and groups left by services that are gone (browsers died with them). */
async function sweepStaleGroups(base: string, removeDir: RemoveCgroupDir): Promise<void> {
  for (const entry of await readdir(base, { withFileTypes: true }).catch(() => [])) {
    const pid = GROUP_PATTERN.exec(entry.name)?.[1];
    if (!entry.isDirectory() || pid === undefined || isProcessAlive(Number(pid))) continue;
    const group = join(base, entry.name);
    for (const child of await readdir(group, { withFileTypes: true }).catch(() => []))
      if (child.isDirectory() && child.name.startsWith('browser-'))
        await removeDir(join(group, child.name)).catch(() => {});
    await removeDir(group).catch(() => {});
  }
}

async function optional(write: Promise<void> | null): Promise<void> {
  await write?.catch(() => {});
}

function words(text: string): string[] {
  return text.split(/\s+/).filter(Boolean);
}

function describeError(error: unknown, path: string): string {
  const code = (error as NodeJS.ErrnoException).code ?? 'error';
  const hint =
    code === 'EBUSY'
      ? ' (cgroup v2 "no internal processes": that cgroup holds processes)'
      : code === 'EACCES' || code === 'EPERM' || code === 'EROFS'
        ? ' (the service needs root and a writable cgroup file system)'
        : '';
  return `${path}: ${code}${hint}`;
}
