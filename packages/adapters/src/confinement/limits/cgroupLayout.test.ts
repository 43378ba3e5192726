import { describe, expect, it } from 'vitest';
import { cgroupLayout } from './cgroupLayout.ts';

/** This kind of host: v1 hierarchies (memory, pids, cpu on their own) plus an empty cgroup2 mount. */
const HYBRID_MOUNTINFO = [
  '23 1 254:0 / / rw,relatime - ext4 /dev/vda rw',
  '31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755',
  '32 31 0:29 / /sys/fs/cgroup/cpu,cpuacct rw,relatime - cgroup cgroup rw,cpu,cpuacct',
  '35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory',
  '39 31 0:36 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids',
  '41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw',
].join('\n');
const HYBRID_CGROUP = ['8:pids:/', '4:memory:/jobs/42', '1:cpu,cpuacct:/', '0::/'].join('\n');

const UNIFIED_MOUNTINFO = [
  '23 1 254:0 / / rw,relatime - ext4 /dev/vda rw',
  '30 23 0:26 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:4 - cgroup2 cgroup2 rw,nsdelegate',
].join('\n');

describe('cgroupLayout', () => {
  it('reads v1 hierarchies and the folder of this process in each (co-mounted cpu,cpuacct too)', () => {
    expect(cgroupLayout(HYBRID_MOUNTINFO, HYBRID_CGROUP)).toEqual({
      version: 1,
      v1: {
        memory: { mountPoint: '/sys/fs/cgroup/memory', ownDir: '/sys/fs/cgroup/memory/jobs/42' },
        pids: { mountPoint: '/sys/fs/cgroup/pids', ownDir: '/sys/fs/cgroup/pids' },
        cpu: { mountPoint: '/sys/fs/cgroup/cpu,cpuacct', ownDir: '/sys/fs/cgroup/cpu,cpuacct' },
      },
    });
  });

  it('reads the unified hierarchy (v2) when no limit controller is mounted as v1', () => {
    expect(cgroupLayout(UNIFIED_MOUNTINFO, '0::/system.slice/browserdeck.service\n')).toEqual({
      version: 2,
      mountPoint: '/sys/fs/cgroup',
      ownDir: '/sys/fs/cgroup/system.slice/browserdeck.service',
    });
  });

  it('maps a cgroup namespace or a bind-mounted subtree through the mount root', () => {
    const mountinfo = '30 23 0:26 /docker/abc /sys/fs/cgroup rw - cgroup2 cgroup2 rw';
    expect(cgroupLayout(mountinfo, '0::/docker/abc/app\n')).toMatchObject({
      version: 2,
      ownDir: '/sys/fs/cgroup/app',
    });
    // The process's cgroup lies outside what is mounted: nothing usable.
    expect(cgroupLayout(mountinfo, '0::/elsewhere\n')).toBeNull();
  });

  it('finds nothing usable when cgroups are read-only or not mounted', () => {
    const readOnly = '30 23 0:26 / /sys/fs/cgroup ro,nosuid - cgroup2 cgroup2 rw';
    expect(cgroupLayout(readOnly, '0::/\n')).toBeNull();
    expect(cgroupLayout('23 1 254:0 / / rw - ext4 /dev/vda rw', '0::/\n')).toBeNull();
    expect(cgroupLayout('', '')).toBeNull();
  });

  it('unescapes mount points with spaces', () => {
    const mountinfo = '30 23 0:26 / /mnt/cg\\040root rw - cgroup2 cgroup2 rw';
    expect(cgroupLayout(mountinfo, '0::/a\n')).toMatchObject({ ownDir: '/mnt/cg root/a' });
  });
});
