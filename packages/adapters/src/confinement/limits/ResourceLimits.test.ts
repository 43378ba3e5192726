import { describe, expect, it } from 'vitest';
import { resolveResourceLimits } from './ResourceLimits.ts';

const MIB = 1024 * 1024;
const GIB = 1024 * MIB;

describe('resolveResourceLimits', () => {
  it('sizes the defaults to the host so maxSessions browsers fit in 80% of its memory', () => {
    expect(resolveResourceLimits({}, { totalMemoryBytes: 64 * GIB, maxSessions: 4 })).toEqual({
      memoryBytes: 2048 * MIB,
      pids: 512,
      cpuWeight: 100,
      diskBytes: 512 * MIB,
    });
    // 8 GiB / 8 sessions: 819 MiB each, and a quarter of that for the disk (tmpfs is memory too).
    expect(resolveResourceLimits({}, { totalMemoryBytes: 8 * GIB, maxSessions: 8 })).toMatchObject({
      memoryBytes: 819 * MIB,
      diskBytes: 204 * MIB,
    });
    // Never below what a browser needs to start.
    expect(resolveResourceLimits({}, { totalMemoryBytes: GIB, maxSessions: 100 }).memoryBytes).toBe(
      256 * MIB,
    );
  });

  it('takes explicit settings, 0 turning a limit off', () => {
    expect(
      resolveResourceLimits(
        { memoryMb: 0, pids: 0, cpuWeight: 0, diskMb: 0 },
        { totalMemoryBytes: 8 * GIB, maxSessions: 2 },
      ),
    ).toEqual({ memoryBytes: null, pids: null, cpuWeight: null, diskBytes: null });
    expect(
      resolveResourceLimits(
        { memoryMb: 300, pids: 64, diskMb: 32 },
        { totalMemoryBytes: 8 * GIB, maxSessions: 2 },
      ),
    ).toMatchObject({ memoryBytes: 300 * MIB, pids: 64, diskBytes: 32 * MIB });
  });

  it('refuses settings out of bounds, naming them', () => {
    const host = { totalMemoryBytes: 8 * GIB, maxSessions: 2 };
    expect(() => resolveResourceLimits({ memoryMb: 64 }, host)).toThrow(/memoryMb must be 0/);
    expect(() => resolveResourceLimits({ pids: 8 }, host)).toThrow(/pids/);
    expect(() => resolveResourceLimits({ cpuWeight: 20_000 }, host)).toThrow(/cpuWeight/);
    expect(() => resolveResourceLimits({ diskMb: 1.5 }, host)).toThrow(/diskMb/);
  });
});
