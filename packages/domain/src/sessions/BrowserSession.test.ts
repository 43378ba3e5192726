import { aSession } from '@browserdeck/testing';
import { describe, expect, it } from 'vitest';
import type { ProviderSessionSnapshot } from '../providers/ProviderSessions.ts';
import type { BrowserSession } from './BrowserSession.ts';

const T0 = new Date('2026-03-01T12:00:00.000Z');
const at = (sec: number) => new Date(T0.getTime() + sec * 1000);

function snapshot(overrides: Partial<ProviderSessionSnapshot> = {}): ProviderSessionSnapshot {
  return {
    providerSessionId: 'p-1',
    providerProjectId: 'pp',
    status: 'RUNNING',
    connectUrl: 'wss://x/1',
    seleniumRemoteUrl: null,
    startedAt: T0,
    endedAt: null,
    expiresAt: at(300),
    ...overrides,
  };
}

function session(overrides: Partial<ProviderSessionSnapshot> = {}): BrowserSession {
  return aSession({ env: { A: '1' }, ...snapshot(overrides), now: T0 });
}

describe('BrowserSession', () => {
  it('starts from the provider’s snapshot, created, updated and synced now', () => {
    const s = session({ status: 'PENDING' });
    expect(s).toMatchObject({ status: 'PENDING', providerSessionId: 'p-1', endedAt: null, isActive: true });
    expect([s.createdAt, s.updatedAt, s.lastSyncedAt].map((d) => d.toISOString())).toEqual(
      Array(3).fill(T0.toISOString()),
    );
  });

  it('takes in a new status and URLs, with the provider’s end time for a terminal one', () => {
    const s = session();
    expect(
      s.applyProviderSnapshot(
        snapshot({ status: 'ERROR', endedAt: at(42), connectUrl: 'wss://x/2' }),
        at(50),
      ),
    ).toBe(true);
    expect(s).toMatchObject({ status: 'ERROR', connectUrl: 'wss://x/2', isActive: false });
    expect(s.endedAt?.toISOString()).toBe(at(42).toISOString());
    expect(s.updatedAt.toISOString()).toBe(at(50).toISOString());
    expect(s.lastSyncedAt.toISOString()).toBe(at(50).toISOString());
  });

  it('ends now when the provider reports a terminal status without an end time', () => {
    const s = session();
    s.applyProviderSnapshot(snapshot({ status: 'TIMED_OUT', endedAt: null }), at(70));
    expect(s.endedAt?.toISOString()).toBe(at(70).toISOString());
  });

  it('ignores an end time the provider reports for an active session', () => {
    const s = session({ status: 'PENDING' });
    expect(s.applyProviderSnapshot(snapshot({ status: 'RUNNING', endedAt: at(5) }), at(10))).toBe(true);
    expect(s.status).toBe('RUNNING');
    expect(s.endedAt).toBeNull();
  });

  it('reports no change, moving only lastSyncedAt, when the snapshot says nothing new', () => {
    const s = session();
    expect(s.applyProviderSnapshot(snapshot(), at(30))).toBe(false);
    expect(s.updatedAt.toISOString()).toBe(T0.toISOString());
    expect(s.lastSyncedAt.toISOString()).toBe(at(30).toISOString());
  });

  it.each(['COMPLETED', 'ERROR', 'TIMED_OUT'] as const)(
    'keeps %s final, whatever the provider says later',
    (status) => {
      const s = session();
      s.applyProviderSnapshot(snapshot({ status, endedAt: at(10) }), at(10));
      for (const later of ['RUNNING', 'PENDING', 'COMPLETED', 'ERROR', 'TIMED_OUT'] as const) {
        expect(
          s.applyProviderSnapshot(
            snapshot({ status: later, endedAt: at(99), connectUrl: 'wss://other' }),
            at(100),
          ),
        ).toBe(false);
      }
      expect(s.status).toBe(status);
      expect(s.endedAt?.toISOString()).toBe(at(10).toISOString());
      expect(s.connectUrl).toBe('wss://x/1');
      expect(s.updatedAt.toISOString()).toBe(at(10).toISOString());
      expect(s.lastSyncedAt.toISOString()).toBe(at(100).toISOString());
    },
  );

  it('ends once: end and markGone do nothing to a terminal session', () => {
    const s = session();
    s.end('COMPLETED', at(20));
    s.end('ERROR', at(30));
    expect(s.markGone(at(40))).toBe(false);
    expect(s.status).toBe('COMPLETED');
    expect(s.endedAt?.toISOString()).toBe(at(20).toISOString());
    expect(s.lastSyncedAt.toISOString()).toBe(at(40).toISOString());
  });

  it('completes a session the provider forgot', () => {
    const s = session();
    expect(s.markGone(at(60))).toBe(true);
    expect(s.status).toBe('COMPLETED');
    expect(s.endedAt?.toISOString()).toBe(at(60).toISOString());
  });

  it('keeps its own copy of the env it was created with', () => {
    const env = { A: '1' };
    const s = aSession({ env });
    env.A = 'changed';
    expect(s.env).toEqual({ A: '1' });
  });

  it('starts with the proxy bytes the provider reports, else 0, and takes a higher count in, never a lower one', () => {
    expect(session().proxyBytes).toBe(0);
    const s = session({ proxyBytes: 500 });
    expect(s.proxyBytes).toBe(500);
    expect(s.applyProviderSnapshot(snapshot({ proxyBytes: 2048 }), at(10))).toBe(true);
    expect(s.proxyBytes).toBe(2048);
    expect(s.updatedAt.toISOString()).toBe(at(10).toISOString());
    // A lower count (or none: a provider that meters elsewhere) changes nothing a client sees.
    expect(s.applyProviderSnapshot(snapshot({ proxyBytes: 100 }), at(20))).toBe(false);
    expect(s.applyProviderSnapshot(snapshot(), at(30))).toBe(false);
    expect(s.proxyBytes).toBe(2048);
  });
});

describe('BrowserSession.expire', () => {
  it('ends an active session as TIMED_OUT at its end of life, updated and synced now', () => {
    const s = session();
    expect(s.providerInstanceId).toBeNull();
    expect(s.endOfLife.toISOString()).toBe(at(300).toISOString());
    expect(s.expire(at(900))).toBe(true);
    expect(s.status).toBe('TIMED_OUT');
    expect(s.endedAt?.toISOString()).toBe(at(300).toISOString());
    expect(s.updatedAt.toISOString()).toBe(at(900).toISOString());
    expect(s.lastSyncedAt.toISOString()).toBe(at(900).toISOString());
  });

  it('takes startedAt + timeoutSec as the end of life without an expiresAt', () => {
    const s = session({ expiresAt: null, startedAt: at(10) });
    expect(s.endOfLife.toISOString()).toBe(at(310).toISOString());
    s.expire(at(1_000));
    expect(s.endedAt?.toISOString()).toBe(at(310).toISOString());
  });

  it('keeps a terminal status and its end time; only lastSyncedAt moves', () => {
    const s = session();
    s.end('COMPLETED', at(20));
    expect(s.expire(at(900))).toBe(false);
    expect(s).toMatchObject({
      status: 'COMPLETED',
      endedAt: at(20),
      updatedAt: at(20),
      lastSyncedAt: at(900),
    });
  });

  it('records the provider instance a snapshot names', () => {
    expect(session({ instanceId: 'instance-a' }).providerInstanceId).toBe('instance-a');
    expect(session({ instanceId: null }).providerInstanceId).toBeNull();
  });
});
