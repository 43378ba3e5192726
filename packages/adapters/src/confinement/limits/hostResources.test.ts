import { describe, expect, it } from 'vitest';
import { hostResourcesOf, type ReadText, readCgroupLimits, readHostResources } from './hostResources.ts';

const GIB = 1024 ** 3;

/** A reader over a fixed set of files; anything else cannot be read. */
const files =
  (contents: Record<string, string>): ReadText =>
  (path) =>
    contents[path] ?? null;

const V2_MOUNTINFO =
  '30 23 0:26 / /sys/fs/cgroup ro,nosuid,nodev,noexec,relatime - cgroup2 cgroup2 rw,nsdelegate\n';
const V1_MOUNTINFO = [
  '32 31 0:29 / /sys/fs/cgroup/cpu,cpuacct ro,relatime - cgroup cgroup ro,cpu,cpuacct',
  '35 31 0:32 / /sys/fs/cgroup/memory ro,relatime - cgroup cgroup ro,memory',
].join('\n');

describe('hostResourcesOf', () => {
  it('takes the machine’s figures when no cgroup limit is lower', () => {
    expect(
      hostResourcesOf({ cpus: 8, totalMemoryBytes: 32 * GIB, cgroupMemoryBytes: null, cgroupCores: null }),
    ).toEqual({ cores: 8, memoryBytes: 32 * GIB, coresFrom: 'host', memoryFrom: 'host' });
    expect(
      hostResourcesOf({ cpus: 2, totalMemoryBytes: 4 * GIB, cgroupMemoryBytes: 64 * GIB, cgroupCores: 16 }),
    ).toEqual({ cores: 2, memoryBytes: 4 * GIB, coresFrom: 'host', memoryFrom: 'host' });
  });

  it('takes a container’s memory limit and CPU quota when lower', () => {
    expect(
      hostResourcesOf({
        cpus: 32,
        totalMemoryBytes: 128 * GIB,
        cgroupMemoryBytes: 6 * GIB,
        cgroupCores: 1.5,
      }),
    ).toEqual({ cores: 1.5, memoryBytes: 6 * GIB, coresFrom: 'cgroup', memoryFrom: 'cgroup' });
  });
});

describe('readCgroupLimits', () => {
  it('reads cgroup v2 memory.max and cpu.max, the lowest of the cgroup and its ancestors', () => {
    const read = files({
      '/proc/self/mountinfo': V2_MOUNTINFO,
      '/proc/self/cgroup': '0::/system.slice/browserdeck.service\n',
      '/sys/fs/cgroup/system.slice/browserdeck.service/memory.max': 'max\n',
      '/sys/fs/cgroup/system.slice/browserdeck.service/cpu.max': '250000 100000\n',
      '/sys/fs/cgroup/system.slice/memory.max': `${8 * GIB}\n`,
      '/sys/fs/cgroup/system.slice/cpu.max': 'max 100000\n',
    });
    expect(readCgroupLimits(read)).toEqual({ cgroupMemoryBytes: 8 * GIB, cgroupCores: 2.5 });
  });

  it('reads a container’s own limits at the namespace root (v2, read-only mount)', () => {
    const read = files({
      '/proc/self/mountinfo': V2_MOUNTINFO,
      '/proc/self/cgroup': '0::/\n',
      '/sys/fs/cgroup/memory.max': `${2 * GIB}\n`,
      '/sys/fs/cgroup/cpu.max': '100000 100000\n',
    });
    expect(readCgroupLimits(read)).toEqual({ cgroupMemoryBytes: 2 * GIB, cgroupCores: 1 });
  });

  it('reads cgroup v1 memory.limit_in_bytes and cpu.cfs_quota_us / cpu.cfs_period_us', () => {
    const read = files({
      '/proc/self/mountinfo': V1_MOUNTINFO,
      '/proc/self/cgroup': '4:memory:/docker/abc\n2:cpu,cpuacct:/docker/abc\n',
      '/sys/fs/cgroup/memory/docker/abc/memory.limit_in_bytes': `${3 * GIB}\n`,
      '/sys/fs/cgroup/memory/docker/memory.limit_in_bytes': '9223372036854771712\n',
      '/sys/fs/cgroup/memory/memory.limit_in_bytes': '9223372036854771712\n',
      '/sys/fs/cgroup/cpu,cpuacct/docker/abc/cpu.cfs_quota_us': '50000\n',
      '/sys/fs/cgroup/cpu,cpuacct/docker/abc/cpu.cfs_period_us': '100000\n',
      '/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us': '-1\n',
      '/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_period_us': '100000\n',
    });
    expect(readCgroupLimits(read)).toEqual({ cgroupMemoryBytes: 3 * GIB, cgroupCores: 0.5 });
  });

  it('finds no limit in v1’s "unlimited" numbers, a -1 quota, "max", or no cgroup file system', () => {
    const v1 = files({
      '/proc/self/mountinfo': V1_MOUNTINFO,
      '/proc/self/cgroup': '4:memory:/\n2:cpu,cpuacct:/\n',
      '/sys/fs/cgroup/memory/memory.limit_in_bytes': '9223372036854771712\n',
      '/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us': '-1\n',
      '/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_period_us': '100000\n',
    });
    expect(readCgroupLimits(v1)).toEqual({ cgroupMemoryBytes: null, cgroupCores: null });
    const v2 = files({
      '/proc/self/mountinfo': V2_MOUNTINFO,
      '/proc/self/cgroup': '0::/\n',
      '/sys/fs/cgroup/memory.max': 'max\n',
      '/sys/fs/cgroup/cpu.max': 'max 100000\n',
    });
    expect(readCgroupLimits(v2)).toEqual({ cgroupMemoryBytes: null, cgroupCores: null });
    expect(readCgroupLimits(files({}))).toEqual({ cgroupMemoryBytes: null, cgroupCores: null });
  });

  it('reads this machine without failing', () => {
    const host = readHostResources();
    expect(host.cores).toBeGreaterThan(0);
    expect(host.memoryBytes).toBeGreaterThan(0);
  });
});
