import { describe, expect, it } from 'vitest';
import type { HostResources } from '../../../confinement/limits/hostResources.ts';
import { describeSessionCapacity, resolveSessionCapacity } from './SessionCapacity.ts';

const GIB = 1024 ** 3;
const host = (cores: number, memoryGiB: number, from: 'host' | 'cgroup' = 'host'): HostResources => ({
  cores,
  memoryBytes: memoryGiB * GIB,
  coresFrom: from,
  memoryFrom: from,
});

describe('resolveSessionCapacity', () => {
  it('sizes the default to the lower of 2 a core and (memory − 1 GiB − 10 %) ÷ 512 MiB', () => {
    // 8 cores: 16; 31.2 GiB: (28.08 − 1) × 2 = 54.
    expect(resolveSessionCapacity({}, host(8, 31.2))).toMatchObject({
      maxSessions: 16,
      maxSessionsPerOwner: 8,
      source: 'host',
      byCores: 16,
      byMemory: 54,
    });
    // This kind of machine (2 cores, 23.5 GiB): the former fixed default of 4.
    expect(resolveSessionCapacity({}, host(2, 23.5))).toMatchObject({
      maxSessions: 4,
      maxSessionsPerOwner: 2,
    });
    // Memory binds: 16 cores in a 4 GiB container: (3.6 − 1) × 2 = 5.
    expect(resolveSessionCapacity({}, host(16, 4, 'cgroup'))).toMatchObject({
      maxSessions: 5,
      maxSessionsPerOwner: 2,
      byMemory: 5,
    });
  });

  it('never goes below 1 session (and 1 per account) nor above 1000', () => {
    expect(resolveSessionCapacity({}, host(0.25, 1))).toMatchObject({
      maxSessions: 1,
      maxSessionsPerOwner: 1,
    });
    expect(resolveSessionCapacity({}, host(1024, 4096)).maxSessions).toBe(1000);
  });

  it('plans with the browsers’ memory limit when it is set below 512 MiB', () => {
    // 4 GiB: 2.6 GiB usable; 256 MiB a session: 10; 0 (no limit) and 2048 keep 512 MiB: 5.
    expect(resolveSessionCapacity({ browserMemoryMb: 256 }, host(16, 4)).maxSessions).toBe(10);
    expect(resolveSessionCapacity({ browserMemoryMb: 0 }, host(16, 4)).maxSessions).toBe(5);
    expect(resolveSessionCapacity({ browserMemoryMb: 2048 }, host(16, 4)).maxSessions).toBe(5);
  });

  it('keeps a configured maximum and share, whatever the host', () => {
    expect(resolveSessionCapacity({ maxSessions: 3 }, host(64, 256))).toMatchObject({
      maxSessions: 3,
      maxSessionsPerOwner: 1,
      source: 'configured',
    });
    expect(resolveSessionCapacity({ maxSessions: 40, maxSessionsPerOwner: 40 }, host(1, 2))).toMatchObject({
      maxSessions: 40,
      maxSessionsPerOwner: 40,
    });
    expect(resolveSessionCapacity({ maxSessionsPerOwner: 3 }, host(8, 32))).toMatchObject({
      maxSessions: 16,
      maxSessionsPerOwner: 3,
      perOwnerLowered: null,
    });
  });

  it('lowers a configured share above a host-sized maximum, and refuses one above a configured maximum', () => {
    expect(resolveSessionCapacity({ maxSessionsPerOwner: 10 }, host(2, 23.5))).toMatchObject({
      maxSessions: 4,
      maxSessionsPerOwner: 4,
      perOwnerLowered: 10,
    });
    expect(() => resolveSessionCapacity({ maxSessions: 4, maxSessionsPerOwner: 5 }, host(8, 32))).toThrow(
      /maxSessionsPerOwner \(5\) must be at most maxSessions \(4\)/,
    );
    expect(() => resolveSessionCapacity({ maxSessions: 0 }, host(8, 32))).toThrow(
      /maxSessions must be a positive/,
    );
    expect(() => resolveSessionCapacity({ maxSessionsPerOwner: 1.5 }, host(8, 32))).toThrow(
      /maxSessionsPerOwner must be a positive/,
    );
  });

  it('says what it chose and from what', () => {
    expect(describeSessionCapacity(resolveSessionCapacity({}, host(8, 31.2)))).toBe(
      'local provider: capacity 16 sessions, 8 per account (from 8 cores, 31.2 GiB: 16 by cores, 54 by memory; LOCAL_MAX_SESSIONS to change)',
    );
    expect(describeSessionCapacity(resolveSessionCapacity({}, host(1.5, 6, 'cgroup')))).toBe(
      'local provider: capacity 3 sessions, 1 per account (from 1.50 cores (CPU quota), 6.0 GiB (cgroup limit): 3 by cores, 8 by memory; LOCAL_MAX_SESSIONS to change)',
    );
    expect(describeSessionCapacity(resolveSessionCapacity({ maxSessions: 2 }, host(2, 23.5)))).toBe(
      "local provider: capacity 2 sessions, 1 per account (set by LOCAL_MAX_SESSIONS; this host's default: 2 cores, 23.5 GiB: 4 by cores, 40 by memory)",
    );
    expect(
      describeSessionCapacity(resolveSessionCapacity({ maxSessionsPerOwner: 9 }, host(2, 23.5))),
    ).toMatch(
      /capacity 4 sessions, 4 per account \(.*; the configured 9 per account is more than the capacity, lowered to it\)$/,
    );
  });
});
