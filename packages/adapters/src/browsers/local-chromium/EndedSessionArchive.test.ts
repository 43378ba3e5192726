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

describe('EndedSessionArchive', () => {
  it('keeps the newest snapshots, and logs only for the newest few', () => {
    const archive = new EndedSessionArchive({ maxSessions: 3, maxWithLogs: 1 });
    const log = { timestamp: 1, method: 'Runtime.consoleAPICalled', pageId: 0 };
    for (const id of ['a', 'b', 'c', 'd']) archive.add(snapshot(id), Buffer.from(id), [log]);
    expect(archive.get('a')).toBeUndefined();
    expect(archive.get('b')?.snapshot.providerSessionId).toBe('b');
    expect(archive.get('c')?.logs).toBeNull();
    expect(archive.get('d')?.logs).toEqual([log]);
  });
});
