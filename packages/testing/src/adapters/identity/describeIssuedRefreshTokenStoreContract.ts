import {
  hashIssuedRefreshToken,
  type IssuedRefreshTokenStore,
} from '@browserdeck/adapters/identity-supabase';
import { describe, expect, it } from 'vitest';

/** A fresh, empty store under test. */
export interface IssuedRefreshTokenStoreFixture {
  store: IssuedRefreshTokenStore;
}

/** How to create stores, and, for stores that prune, how to count what they keep (expired included). */
export interface IssuedRefreshTokenStoreContractOptions {
  create: () => Promise<IssuedRefreshTokenStoreFixture>;
  countRecords?: () => Promise<number>;
}

const base = Date.parse('2026-04-05T06:07:08.009Z');
const at = (seconds: number) => new Date(base + seconds * 1000);
const SESSION = '8e5f3c1a-55b4-4a3e-9a57-1f0c2b7d9e01';
const OTHER = '8e5f3c1a-55b4-4a3e-9a57-1f0c2b7d9e02';

/** Behaviour every `IssuedRefreshTokenStore` must have. */
export function describeIssuedRefreshTokenStoreContract(
  name: string,
  options: IssuedRefreshTokenStoreContractOptions,
): void {
  describe(`IssuedRefreshTokenStore contract: ${name}`, () => {
    const hash = hashIssuedRefreshToken('rt-1');

    it('finds the session of a remembered token until `until`, and not after', async () => {
      const { store } = await options.create();
      await store.remember(hash, { sessionId: SESSION, accessTokenTtlSec: 3600 }, at(60), at(0));
      expect(await store.find(hash, at(0))).toEqual({ sessionId: SESSION, accessTokenTtlSec: 3600 });
      expect(await store.find(hash, new Date(at(60).getTime() - 1))).toEqual({
        sessionId: SESSION,
        accessTokenTtlSec: 3600,
      });
      expect(await store.find(hash, at(60))).toBeNull();
    });

    it('knows nothing of tokens it was not told about', async () => {
      const { store } = await options.create();
      await store.remember(hash, { sessionId: SESSION, accessTokenTtlSec: 3600 }, at(60), at(0));
      expect(await store.find(hashIssuedRefreshToken('rt-2'), at(0))).toBeNull();
    });

    it('replaces the record of a token remembered again', async () => {
      const { store } = await options.create();
      await store.remember(hash, { sessionId: SESSION, accessTokenTtlSec: 3600 }, at(60), at(0));
      await store.remember(hash, { sessionId: OTHER, accessTokenTtlSec: 900 }, at(120), at(1));
      expect(await store.find(hash, at(90))).toEqual({ sessionId: OTHER, accessTokenTtlSec: 900 });
    });

    it('hashes tokens to a stable, token-free key', () => {
      expect(hashIssuedRefreshToken('rt-1')).toBe(hash);
      expect(hash).not.toContain('rt-1');
      expect(hash).toMatch(/^[A-Za-z0-9_-]{43}$/);
    });

    const count = options.countRecords;
    if (!count) return;
    it('forgets expired records a bounded number (100) at a time, on writes', async () => {
      const { store } = await options.create();
      const issued = { sessionId: SESSION, accessTokenTtlSec: 3600 };
      for (let i = 0; i < 105; i++) {
        await store.remember(hashIssuedRefreshToken(`old-${i}`), issued, at(10), at(0));
      }
      await store.remember(hashIssuedRefreshToken('new-1'), issued, at(1000), at(5));
      expect(await count()).toBe(106);
      await store.remember(hashIssuedRefreshToken('new-2'), issued, at(1000), at(20));
      expect(await count()).toBe(7);
      await store.remember(hashIssuedRefreshToken('new-3'), issued, at(1000), at(20));
      expect(await count()).toBe(3);
      expect(await store.find(hashIssuedRefreshToken('new-1'), at(20))).toEqual(issued);
    });
  });
}
