const MIB = 1024 * 1024;

/** Bounds of the settings, in their units (MiB, tasks, weight); 0 turns a limit off. */
export const RESOURCE_LIMIT_BOUNDS = {
  memoryMb: { min: 128, max: 1024 * 1024 },
  pids: { min: 32, max: 4_194_304 },
  diskMb: { min: 16, max: 1024 * 1024 },
  cpuWeight: { min: 1, max: 10_000 },
} as const;

/** Largest default memory limit of one browser, in MiB. */
const DEFAULT_MEMORY_CAP_MB = 2048;
/** Smallest default memory limit (a small host with many slots still gets browsers that start). */
const DEFAULT_MEMORY_FLOOR_MB = 256;
const DEFAULT_PIDS = 512;
const DEFAULT_DISK_MB = 512;
/** cgroup v2's default `cpu.weight`: every browser gets an equal share under contention. */
const DEFAULT_CPU_WEIGHT = 100;

/**
 * What the host asks for (`LOCAL_BROWSER_MEMORY_MB`, `LOCAL_BROWSER_PIDS`, `LOCAL_SESSION_DISK_MB`,
 * `LOCAL_BROWSER_CPU_WEIGHT`): a number within `RESOURCE_LIMIT_BOUNDS`, 0 for no limit, or absent
 * for the default.
 */
export interface ResourceLimitSettings {
  readonly memoryMb?: number | undefined;
  readonly pids?: number | undefined;
  readonly diskMb?: number | undefined;
  readonly cpuWeight?: number | undefined;
}

/** The limits each browser runs with; null where there is none. */
export interface ResourceLimits {
  /** Memory of the browser's whole process tree, tmpfs pages it wrote included; no swap beyond it. */
  readonly memoryBytes: number | null;
  /** Tasks (processes and threads) of the browser's process tree. */
  readonly pids: number | null;
  /** Its CPU weight against other browsers (cgroup v2 `cpu.weight`, 1 to 10000; v1 `cpu.shares` scaled). */
  readonly cpuWeight: number | null;
  /** Size of each writable file system it has: its profile (with Downloads), `/tmp`, `/dev/shm`. */
  readonly diskBytes: number | null;
}

/**
 * The limits for `settings` on a host with `totalMemoryBytes` of RAM running up to `maxSessions`
 * browsers. Defaults: memory min(2048 MiB, 80% of RAM / maxSessions), at least 256 MiB; 512 tasks;
 * CPU weight 100; disk min(512 MiB, a quarter of the memory limit), since tmpfs pages count against
 * the memory limit. Throws a `RangeError` naming a setting out of its bounds.
 */
export function resolveResourceLimits(
  settings: ResourceLimitSettings,
  host: { totalMemoryBytes: number; maxSessions: number },
): ResourceLimits {
  const memoryMb = pick(
    'memoryMb',
    settings.memoryMb,
    Math.max(
      DEFAULT_MEMORY_FLOOR_MB,
      Math.min(DEFAULT_MEMORY_CAP_MB, Math.floor((host.totalMemoryBytes * 0.8) / MIB / host.maxSessions)),
    ),
  );
  const pids = pick('pids', settings.pids, DEFAULT_PIDS);
  const cpuWeight = pick('cpuWeight', settings.cpuWeight, DEFAULT_CPU_WEIGHT);
  const diskMb = pick(
    'diskMb',
    settings.diskMb,
    memoryMb === null ? DEFAULT_DISK_MB : Math.min(DEFAULT_DISK_MB, Math.floor(memoryMb / 4)),
  );
  return {
    memoryBytes: memoryMb === null ? null : memoryMb * MIB,
    pids,
    cpuWeight,
    diskBytes: diskMb === null ? null : diskMb * MIB,
  };
}

function pick(
  name: keyof typeof RESOURCE_LIMIT_BOUNDS,
  value: number | undefined,
  fallback: number,
): number | null {
  if (value === undefined) return fallback;
  if (value === 0) return null;
  const { min, max } = RESOURCE_LIMIT_BOUNDS[name];
  if (!Number.isInteger(value) || value < min || value > max)
    throw new RangeError(`${name} must be 0 (no limit) or an integer from ${min} to ${max}`);
  return value;
}
