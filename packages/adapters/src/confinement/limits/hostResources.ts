import { readFileSync } from 'node:fs';
import { availableParallelism, totalmem } from 'node:os';
import { dirname, relative } from 'node:path';
import { cgroupLayout } from './cgroupLayout.ts';

/** The cores and memory this process may use: the machine's, or its cgroup's when lower. */
export interface HostResources {
  /** Cores (fractional under a CPU quota, e.g. 1.5). */
  readonly cores: number;
  readonly memoryBytes: number;
  /** What set each figure: the machine, or a cgroup limit below it (a container, a systemd unit). */
  readonly coresFrom: 'host' | 'cgroup';
  readonly memoryFrom: 'host' | 'cgroup';
}

/** What `readHostResources` reads; each cgroup figure is null where no limit is set (or none is readable). */
export interface HostReadings {
  /** `os.availableParallelism()`: the CPUs this process may run on. */
  readonly cpus: number;
  /** `os.totalmem()`. */
  readonly totalMemoryBytes: number;
  /** The lowest `memory.max` (v2) or `memory.limit_in_bytes` (v1) of this process's cgroup and its ancestors. */
  readonly cgroupMemoryBytes: number | null;
  /** The lowest CPU quota in cores, `cpu.max` (v2) or `cpu.cfs_quota_us / cpu.cfs_period_us` (v1). */
  readonly cgroupCores: number | null;
}

/** The decision: a cgroup limit counts when it is below the machine's figure. */
export function hostResourcesOf(readings: HostReadings): HostResources {
  const { cpus, totalMemoryBytes, cgroupMemoryBytes, cgroupCores } = readings;
  const memoryCapped = cgroupMemoryBytes !== null && cgroupMemoryBytes < totalMemoryBytes;
  const coresCapped = cgroupCores !== null && cgroupCores < cpus;
  return {
    cores: coresCapped ? cgroupCores : cpus,
    memoryBytes: memoryCapped ? cgroupMemoryBytes : totalMemoryBytes,
    coresFrom: coresCapped ? 'cgroup' : 'host',
    memoryFrom: memoryCapped ? 'cgroup' : 'host',
  };
}

/** Reads a file's text, null when it cannot be read. */
export type ReadText = (path: string) => string | null;

const readText: ReadText = (path) => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
};

/**
 * This process's cgroup limits, from `/proc/self/mountinfo`, `/proc/self/cgroup` and the cgroup
 * files (read-only mounts too, as containers have them): the lowest limit of its cgroup and every
 * ancestor up to the mount's root. Nothing readable (no cgroup file system, a cgroup outside what is
 * mounted): both null.
 */
export function readCgroupLimits(
  read: ReadText = readText,
): Pick<HostReadings, 'cgroupMemoryBytes' | 'cgroupCores'> {
  const layout = cgroupLayout(read('/proc/self/mountinfo') ?? '', read('/proc/self/cgroup') ?? '', {
    readOnlyToo: true,
  });
  if (!layout) return { cgroupMemoryBytes: null, cgroupCores: null };
  if (layout.version === 2) {
    const dirs = upTo(layout.mountPoint, layout.ownDir);
    return {
      cgroupMemoryBytes: lowest(dirs.map((d) => v2Memory(read(`${d}/memory.max`)))),
      cgroupCores: lowest(dirs.map((d) => v2Cores(read(`${d}/cpu.max`)))),
    };
  }
  const { memory, cpu } = layout.v1;
  return {
    cgroupMemoryBytes: memory
      ? lowest(
          upTo(memory.mountPoint, memory.ownDir).map((d) => v1Number(read(`${d}/memory.limit_in_bytes`))),
        )
      : null,
    cgroupCores: cpu
      ? lowest(
          upTo(cpu.mountPoint, cpu.ownDir).map((d) =>
            v1Cores(read(`${d}/cpu.cfs_quota_us`), read(`${d}/cpu.cfs_period_us`)),
          ),
        )
      : null,
  };
}

/** The machine's cores and memory with this process's cgroup limits applied (no network, a few small reads). */
export function readHostResources(read: ReadText = readText): HostResources {
  return hostResourcesOf({
    cpus: availableParallelism(),
    totalMemoryBytes: totalmem(),
    ...readCgroupLimits(read),
  });
}

/** `dir` and its parents up to `root`, both included. */
function upTo(root: string, dir: string): string[] {
  const dirs = [dir];
  for (let d = dir; relative(root, d) !== '' && !relative(root, d).startsWith('..'); ) {
    d = dirname(d);
    dirs.push(d);
  }
  return dirs;
}

function lowest(values: readonly (number | null)[]): number | null {
  const set = values.filter((v): v is number => v !== null);
  return set.length === 0 ? null : Math.min(...set);
}

/** v1 writes "no limit" as a huge number (2^63 rounded down to a page): treat anything past 2^60 as none. */
const UNLIMITED = 2 ** 60;

function v1Number(text: string | null): number | null {
  const value = Number(text?.trim());
  return text === null || !Number.isFinite(value) || value <= 0 || value >= UNLIMITED ? null : value;
}

function v2Memory(text: string | null): number | null {
  return text?.trim() === 'max' ? null : v1Number(text);
}

/** `cpu.max`: "<quota> <period>" in µs, or "max <period>". */
function v2Cores(text: string | null): number | null {
  const [quota, period] = text?.trim().split(/\s+/) ?? [];
  return quota === undefined || quota === 'max' ? null : v1Cores(quota, period ?? null);
}

/** `cpu.cfs_quota_us` (-1: none) over `cpu.cfs_period_us`. */
function v1Cores(quota: string | null, period: string | null): number | null {
  const q = Number(quota?.trim());
  const p = Number(period?.trim());
  return quota === null || !(q > 0) || !(p > 0) ? null : q / p;
}
