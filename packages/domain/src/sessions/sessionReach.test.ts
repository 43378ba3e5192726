import { aSession, FakeBrowserProvider, ManualClock } from '@browserdeck/testing';
import { describe, expect, it } from 'vitest';
import type { BrowserSession } from './BrowserSession.ts';
import { heldElsewhere, OTHER_INSTANCE_EXPIRY_GRACE_SEC, sessionReach } from './sessionReach.ts';

const T0 = new Date('2026-03-01T12:00:00.000Z');
const at = (sec: number) => new Date(T0.getTime() + sec * 1000);
const clock = new ManualClock(T0.toISOString());
const local = (instanceId: string) => new FakeBrowserProvider({ clock, name: 'local', instanceId });
const everywhere = new FakeBrowserProvider({ clock, name: 'browserbase' });

function session(instanceId: string | null, expiresAt: Date | null = at(300)): BrowserSession {
  return aSession({ provider: 'local', timeoutSec: 600, instanceId, expiresAt, now: T0 });
}

describe('sessionReach', () => {
  it('reaches a session of no instance in particular from any provider, and one of its own instance', () => {
    expect(session(null).providerInstanceId).toBeNull();
    expect(sessionReach(session(null), everywhere, at(10))).toBe('here');
    expect(sessionReach(session(null), local('a'), at(10))).toBe('here');
    expect(session('a').providerInstanceId).toBe('a');
    expect(sessionReach(session('a'), local('a'), at(10_000))).toBe('here');
    expect(heldElsewhere(session('a'), local('a'))).toBe(false);
  });

  it('leaves another instance’s session elsewhere, seen from another instance or a provider without one', () => {
    expect(sessionReach(session('a'), local('b'), at(10))).toBe('elsewhere');
    expect(sessionReach(session('a'), everywhere, at(10))).toBe('elsewhere');
    expect(heldElsewhere(session('a'), local('b'))).toBe(true);
  });

  it('takes another instance’s active session as over once past its end of life by the grace, not a millisecond before', () => {
    const s = session('a');
    const due = s.expiresAt!.getTime() + OTHER_INSTANCE_EXPIRY_GRACE_SEC * 1000;
    expect(OTHER_INSTANCE_EXPIRY_GRACE_SEC).toBe(300);
    expect(sessionReach(s, local('b'), new Date(due - 1))).toBe('elsewhere');
    expect(sessionReach(s, local('b'), new Date(due))).toBe('expired_elsewhere');
    expect(sessionReach(s, local('b'), at(301), 1)).toBe('expired_elsewhere');
    // Without an expiresAt, its end of life is startedAt + timeoutSec (600 s).
    const open = session('a', null);
    expect(sessionReach(open, local('b'), at(600 + 299))).toBe('elsewhere');
    expect(sessionReach(open, local('b'), at(600 + 300))).toBe('expired_elsewhere');
  });

  it('never calls an ended session of another instance expired: it stays elsewhere', () => {
    const s = session('a');
    s.end('COMPLETED', at(5));
    expect(sessionReach(s, local('b'), at(100_000))).toBe('elsewhere');
    expect(heldElsewhere(s, local('b'))).toBe(true);
  });
});
