import { describe, expect, it } from 'vitest';
import type { SessionAnswer } from '../sessions/BrowserSession.ts';
import type { IdempotencyStore } from '../sessions/IdempotencyStore.ts';

/** A fresh, empty idempotency store. */
export interface IdempotencyStoreFixture {
  idempotency: IdempotencyStore;
}

const SCOPE = '0190e000-0000-7000-8000-00000000000a:0190e000-0000-7000-8000-0000000000a1';
const OTHER_SCOPE = '0190e000-0000-7000-8000-00000000000b:0190e000-0000-7000-8000-0000000000a2';
const SESSION_1 = '0190e000-0000-7000-8000-000000000001';
const SESSION_2 = '0190e000-0000-7000-8000-000000000002';
/** How SESSION_1 answered: every field a store must give back as it was, dates to the millisecond. */
const ANSWER_1: SessionAnswer = {
  status: 'RUNNING',
  connectUrl: 'wss://connect.example.com/?signingKey=a%2Bb',
  seleniumRemoteUrl: null,
  updatedAt: new Date('2026-03-03T09:00:00.123Z'),
  endedAt: null,
  expiresAt: new Date('2026-03-03T09:05:00.123Z'),
  lastSyncedAt: new Date('2026-03-03T09:00:00.123Z'),
};
const ANSWER_2: SessionAnswer = {
  status: 'COMPLETED',
  connectUrl: 'ws://127.0.0.1:3000/v1/local/sessions/x/connect',
  seleniumRemoteUrl: 'http://127.0.0.1:4444/wd/hub',
  updatedAt: new Date('2026-03-03T09:00:01.001Z'),
  endedAt: new Date('2026-03-03T09:00:01.001Z'),
  expiresAt: null,
  lastSyncedAt: new Date('2026-03-03T09:00:00.999Z'),
};
const BODY = '{"name":"first","timeoutSec":300}';
const OTHER_BODY = '{"name":"second","timeoutSec":300}';

/**
 * Behaviour every `IdempotencyStore` must have (SPEC §5 `Idempotency-Key`): one claim per key and
 * scope, also under concurrency; completion, release and expiry. A returned record's
 * `fingerprint` equals the caller's when the bodies match and differs from it when they do not
 * (stores may keep only a digest). `create` gives a fresh, empty store.
 */
export function describeIdempotencyStoreContract(
  name: string,
  options: { create: () => Promise<IdempotencyStoreFixture> },
): void {
  describe(`IdempotencyStore contract: ${name}`, () => {
    const now = new Date('2026-03-03T09:00:00.250Z');
    const at = (ms: number) => new Date(now.getTime() + ms);
    const expiresAt = at(60_000);

    async function setUp(): Promise<IdempotencyStore> {
      return (await options.create()).idempotency;
    }

    it('claims a key the first time and answers the record after', async () => {
      const store = await setUp();
      expect(await store.reserve(SCOPE, 'key-1', BODY, now, expiresAt)).toBeNull();
      expect(await store.reserve(SCOPE, 'key-1', BODY, at(1), expiresAt)).toEqual({
        fingerprint: BODY,
        sessionId: null,
        answer: null,
      });
      const reused = await store.reserve(SCOPE, 'key-1', OTHER_BODY, at(2), expiresAt);
      expect(reused).not.toBeNull();
      expect(reused!.fingerprint).not.toBe(OTHER_BODY);
      expect(reused!.sessionId).toBeNull();
    });

    it('records the session a completed claim created, and how it answered', async () => {
      const store = await setUp();
      await store.reserve(SCOPE, 'key-1', BODY, now, expiresAt);
      await store.complete(SCOPE, 'key-1', SESSION_1, ANSWER_1);
      expect(await store.reserve(SCOPE, 'key-1', BODY, at(1), expiresAt)).toEqual({
        fingerprint: BODY,
        sessionId: SESSION_1,
        answer: ANSWER_1,
      });
    });

    it('lets a later reserve claim a released key', async () => {
      const store = await setUp();
      await store.reserve(SCOPE, 'key-1', BODY, now, expiresAt);
      await store.release(SCOPE, 'key-1');
      expect(await store.reserve(SCOPE, 'key-1', OTHER_BODY, at(1), expiresAt)).toBeNull();
      expect(await store.reserve(SCOPE, 'key-1', OTHER_BODY, at(2), expiresAt)).toEqual({
        fingerprint: OTHER_BODY,
        sessionId: null,
        answer: null,
      });
      // Releasing a key nobody holds is harmless.
      await store.release(SCOPE, 'never-reserved');
    });

    it('replaces a record once it expired (now ≥ expiresAt), not before', async () => {
      const store = await setUp();
      await store.reserve(SCOPE, 'key-1', BODY, now, expiresAt);
      await store.complete(SCOPE, 'key-1', SESSION_1, ANSWER_1);
      const justBefore = new Date(expiresAt.getTime() - 1);
      expect(await store.reserve(SCOPE, 'key-1', OTHER_BODY, justBefore, at(120_000))).not.toBeNull();
      expect(await store.reserve(SCOPE, 'key-1', OTHER_BODY, expiresAt, at(120_000))).toBeNull();
      expect(await store.reserve(SCOPE, 'key-1', OTHER_BODY, at(60_001), at(120_000))).toEqual({
        fingerprint: OTHER_BODY,
        sessionId: null,
        answer: null,
      });
    });

    it('keeps scopes and keys independent', async () => {
      const store = await setUp();
      expect(await store.reserve(SCOPE, 'key-1', BODY, now, expiresAt)).toBeNull();
      expect(await store.reserve(OTHER_SCOPE, 'key-1', OTHER_BODY, now, expiresAt)).toBeNull();
      expect(await store.reserve(SCOPE, 'key-2', OTHER_BODY, now, expiresAt)).toBeNull();
      await store.complete(SCOPE, 'key-1', SESSION_1, ANSWER_1);
      await store.complete(OTHER_SCOPE, 'key-1', SESSION_2, ANSWER_2);
      await store.release(SCOPE, 'key-2');
      expect(await store.reserve(SCOPE, 'key-1', BODY, at(1), expiresAt)).toEqual({
        fingerprint: BODY,
        sessionId: SESSION_1,
        answer: ANSWER_1,
      });
      expect(await store.reserve(OTHER_SCOPE, 'key-1', OTHER_BODY, at(1), expiresAt)).toEqual({
        fingerprint: OTHER_BODY,
        sessionId: SESSION_2,
        answer: ANSWER_2,
      });
    });

    it('lets exactly one of 20 concurrent reserves of one key claim it', async () => {
      const store = await setUp();
      const outcomes = await Promise.all(
        Array.from({ length: 20 }, () => store.reserve(SCOPE, 'race', BODY, now, expiresAt)),
      );
      expect(outcomes.filter((o) => o === null)).toHaveLength(1);
      expect(outcomes.filter((o) => o !== null)).toEqual(
        Array.from({ length: 19 }, () => ({ fingerprint: BODY, sessionId: null, answer: null })),
      );
    });
  });
}
