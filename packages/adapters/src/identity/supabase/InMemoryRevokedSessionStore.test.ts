import { describe, expect, it } from 'vitest';
import { InMemoryRevokedSessionStore } from './InMemoryRevokedSessionStore.ts';

const at = (iso: string) => new Date(`2026-01-01T${iso}Z`);

describe('InMemoryRevokedSessionStore', () => {
  it('refuses a session until the given time, and not after', async () => {
    const store = new InMemoryRevokedSessionStore();
    await store.revoke('s1', at('01:00:00'));
    expect(await store.isRevoked('s1', at('00:59:59'))).toBe(true);
    expect(await store.isRevoked('s1', at('01:00:00'))).toBe(false);
    expect(await store.isRevoked('s2', at('00:00:00'))).toBe(false);
  });

  it('keeps the later of two revocations, and prunes expired records', async () => {
    const store = new InMemoryRevokedSessionStore();
    await store.revoke('s1', at('02:00:00'));
    await store.revoke('s1', at('01:00:00'));
    await store.revoke('s2', at('00:30:00'));
    expect(await store.isRevoked('s1', at('01:30:00'))).toBe(true);
    store.prune(at('01:00:00').getTime());
    expect(store.size).toBe(1);
  });
});
