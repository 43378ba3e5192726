import type { RevokedSessionStore } from '@browserdeck/adapters/identity-supabase';
import { describe, expect, it } from 'vitest';

/** A fresh, empty store under test. */
export interface RevokedSessionStoreFixture {
  store: RevokedSessionStore;
}

/** How to create stores, and, for stores that prune, how to count what they keep (expired included). */
export interface RevokedSessionStoreContractOptions {
  create: () => Promise<RevokedSessionStoreFixture>;
  countRecords?: () => Promise<number>;
}

const base = Date.parse('2026-04-05T06:07:08.009Z');
const at = (seconds: number) => new Date(base + seconds * 1000);
const SESSION = '8e5f3c1a-55b4-4a3e-9a57-1f0c2b7d9e01';

/** Behaviour every `RevokedSessionStore` must have. */
export function describeRevokedSessionStoreContract(
  name: string,
  options: RevokedSessionStoreContractOptions,
): void {
  describe(`RevokedSessionStore contract: ${name}`, () => {
    it('refuses a session until the given time (to the millisecond), and not after', async () => {
      const { store } = await options.create();
      await store.revoke(SESSION, at(60), at(0));
      expect(await store.isRevoked(SESSION, at(0))).toBe(true);
      expect(await store.isRevoked(SESSION, new Date(at(60).getTime() - 1))).toBe(true);
      expect(await store.isRevoked(SESSION, at(60))).toBe(false);
      expect(await store.isRevoked(SESSION, at(61))).toBe(false);
    });

    it('knows nothing of other sessions, nor of session ids that are not uuids', async () => {
      const { store } = await options.create();
      await store.revoke(SESSION, at(60), at(0));
      expect(await store.isRevoked('8e5f3c1a-55b4-4a3e-9a57-1f0c2b7d9e02', at(0))).toBe(false);
      expect(await store.isRevoked('not-a-uuid', at(0))).toBe(false);
      await store.revoke('not-a-uuid', at(60), at(0));
      expect(await store.isRevoked('not-a-uuid', at(30))).toBe(true);
    });

    it('keeps the later of two revocations: a later one extends, an earlier one changes nothing', async () => {
      const { store } = await options.create();
      await store.revoke(SESSION, at(60), at(0));
      await store.revoke(SESSION, at(120), at(1));
      expect(await store.isRevoked(SESSION, at(90))).toBe(true);
      await store.revoke(SESSION, at(30), at(2));
      expect(await store.isRevoked(SESSION, at(90))).toBe(true);
      expect(await store.isRevoked(SESSION, at(120))).toBe(false);
    });

    it('revives a session whose record expired when it is revoked again', async () => {
      const { store } = await options.create();
      await store.revoke(SESSION, at(10), at(0));
      expect(await store.isRevoked(SESSION, at(20))).toBe(false);
      await store.revoke(SESSION, at(100), at(20));
      expect(await store.isRevoked(SESSION, at(50))).toBe(true);
    });

    it('takes concurrent revocations of one session: the latest until wins', async () => {
      const { store } = await options.create();
      await Promise.all([60, 300, 120, 240].map((s) => store.revoke(SESSION, at(s), at(0))));
      expect(await store.isRevoked(SESSION, at(299))).toBe(true);
      expect(await store.isRevoked(SESSION, at(300))).toBe(false);
    });

    const count = options.countRecords;
    if (!count) return;
    it('forgets expired records a bounded number (100) at a time, on writes', async () => {
      const { store } = await options.create();
      for (let i = 0; i < 105; i++) await store.revoke(`expired-${i}`, at(10), at(0));
      await store.revoke('live-1', at(1000), at(5));
      // Nothing had expired at 5 s.
      expect(await count()).toBe(106);
      await store.revoke('live-2', at(1000), at(20));
      expect(await count()).toBe(7);
      await store.revoke('live-3', at(1000), at(20));
      expect(await count()).toBe(3);
      expect(await store.isRevoked('live-1', at(20))).toBe(true);
    });
  });
}
