import { describeIssuedRefreshTokenStoreContract } from '@browserdeck/testing/adapters';
import { describe, expect, it } from 'vitest';
import { InMemoryIssuedRefreshTokenStore } from './InMemoryIssuedRefreshTokenStore.ts';

describeIssuedRefreshTokenStoreContract('InMemoryIssuedRefreshTokenStore', {
  create: async () => ({ store: new InMemoryIssuedRefreshTokenStore() }),
});

describe('InMemoryIssuedRefreshTokenStore', () => {
  it('keeps at most maxEntries records, forgetting the oldest first', async () => {
    const store = new InMemoryIssuedRefreshTokenStore(2);
    const now = new Date('2026-01-01T00:00:00Z');
    const until = new Date('2026-01-02T00:00:00Z');
    for (const hash of ['a', 'b', 'c']) {
      await store.remember(hash, { sessionId: `s-${hash}`, accessTokenTtlSec: 60 }, until, now);
    }
    expect(store.size).toBe(2);
    expect(await store.find('a', now)).toBeNull();
    expect(await store.find('c', now)).toEqual({ sessionId: 's-c', accessTokenTtlSec: 60 });
  });
});
