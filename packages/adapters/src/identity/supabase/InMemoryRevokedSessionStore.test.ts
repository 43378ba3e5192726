import { describeRevokedSessionStoreContract } from '@browserdeck/testing/adapters';
import { describe, expect, it } from 'vitest';
import { InMemoryRevokedSessionStore } from './InMemoryRevokedSessionStore.ts';

describeRevokedSessionStoreContract('InMemoryRevokedSessionStore', {
  create: async () => ({ store: new InMemoryRevokedSessionStore() }),
});

const at = (iso: string) => new Date(`2026-01-01T${iso}Z`);

describe('InMemoryRevokedSessionStore', () => {
  it('prunes expired records', async () => {
    const store = new InMemoryRevokedSessionStore();
    await store.revoke('s1', at('02:00:00'), at('00:00:00'));
    await store.revoke('s2', at('00:30:00'), at('00:00:00'));
    store.prune(at('01:00:00').getTime());
    expect(store.size).toBe(1);
    expect(await store.isRevoked('s1', at('01:30:00'))).toBe(true);
  });
});
