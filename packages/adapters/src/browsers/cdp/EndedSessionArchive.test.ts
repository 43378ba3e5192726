import type { ProviderSessionSnapshot } from '@browserdeck/domain';
import { describe, expect, it } from 'vitest';
import { EndedSessionArchive } from './EndedSessionArchive.ts';

function snapshot(id: string): ProviderSessionSnapshot {
  const at = new Date('2026-01-01T00:00:00Z');
  return {
    providerSessionId: id,
    providerProjectId: 'local',
    status: 'COMPLETED',
    connectUrl: `ws://x/${id}`,
    seleniumRemoteUrl: null,
    startedAt: at,
    endedAt: at,
    expiresAt: at,
  };
}

const log = { timestamp: 1, method: 'Runtime.consoleAPICalled', pageId: 0 };

describe('EndedSessionArchive', () => {
  it('keeps the newest snapshots, and logs only for the newest few', () => {
    const archive = new EndedSessionArchive({ maxSessions: 3, maxWithLogs: 1, maxLogBytes: 1000 });
    for (const id of ['a', 'b', 'c', 'd'])
      archive.add(snapshot(id), Buffer.from(id), { entries: [log], bytes: 10 });
    expect(archive.get('a')).toBeUndefined();
    expect(archive.get('b')?.snapshot.providerSessionId).toBe('b');
    expect(archive.get('c')?.logs).toBeNull();
    expect(archive.get('d')?.logs).toEqual([log]);
    expect(archive.bytes).toBe(10);
  });

  it('keeps all ended sessions’ logs within one byte budget, dropping the oldest first', () => {
    const archive = new EndedSessionArchive({ maxSessions: 100, maxWithLogs: 100, maxLogBytes: 250 });
    for (const id of ['a', 'b', 'c'])
      archive.add(snapshot(id), Buffer.from(id), { entries: [log], bytes: 100 });
    expect(archive.get('a')?.logs).toBeNull();
    expect(archive.get('b')?.logs).toEqual([log]);
    expect(archive.get('c')?.logs).toEqual([log]);
    expect(archive.bytes).toBe(200);
    // Logs larger than the whole budget are not kept; the snapshot is.
    archive.add(snapshot('d'), Buffer.from('d'), { entries: [log], bytes: 251 });
    expect(archive.get('d')).toMatchObject({ logs: null, snapshot: { providerSessionId: 'd' } });
    expect(archive.get('c')?.logs).toEqual([log]);
    expect(archive.bytes).toBe(200);
  });
});
