import type { IdempotencyStore, SessionAnswer } from '@browserdeck/domain';
import { describe, expect, it } from 'vitest';

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
 * Behaviour every `IdempotencyStore` must have (http-api.md §5 `Idempotency-Key`): one claim per key and
 * scope, also under concurrency; completion, release, take-over of an abandoned claim, and expiry.
 * A returned record's `fingerprint` equals the caller's when the bodies match and differs from it
 * when they do not (stores may keep only a digest). `create` gives a fresh, empty store.
 */
export function describeIdempotencyStoreContract(
  name: string,
  options: { create: () => Promise<IdempotencyStoreFixture> },
): void {
  describe(`IdempotencyStore contract: ${name}`, () => {
    const now = new Date('2026-03-03T09:00:00.250Z');
    const at = (ms: number) => new Date(now.getTime() + ms);
    const expiresAt = at(60_000);
    const SESSION_3 = '0190e000-0000-7000-8000-000000000003';
    /** An unanswered claim of `sessionId` made at `claimedAt`, as `reserve` reports it. */
    const claim = (fingerprint: string, sessionId: string, claimedAt = now) => ({
      fingerprint,
      sessionId,
      answer: null,
      claimedAt,
    });

    async function setUp(): Promise<IdempotencyStore> {
      return (await options.create()).idempotency;
    }

    it('claims a key the first time and answers the record after, with the session chosen up front', async () => {
      const store = await setUp();
      expect(await store.reserve(SCOPE, 'key-1', BODY, SESSION_1, now, expiresAt)).toBeNull();
      expect(await store.reserve(SCOPE, 'key-1', BODY, SESSION_2, at(1), expiresAt)).toEqual(
        claim(BODY, SESSION_1),
      );
      const reused = await store.reserve(SCOPE, 'key-1', OTHER_BODY, SESSION_2, at(2), expiresAt);
      expect(reused).not.toBeNull();
      expect(reused!.fingerprint).not.toBe(OTHER_BODY);
      expect(reused!.sessionId).toBe(SESSION_1);
    });

    it('records how the claimed session answered', async () => {
      const store = await setUp();
      await store.reserve(SCOPE, 'key-1', BODY, SESSION_1, now, expiresAt);
      await store.complete(SCOPE, 'key-1', SESSION_1, ANSWER_1);
      expect(await store.reserve(SCOPE, 'key-1', BODY, SESSION_2, at(1), expiresAt)).toEqual({
        ...claim(BODY, SESSION_1),
        answer: ANSWER_1,
      });
    });

    it('lets a later reserve claim a key its holder released; another session cannot release it', async () => {
      const store = await setUp();
      await store.reserve(SCOPE, 'key-1', BODY, SESSION_1, now, expiresAt);
      await store.release(SCOPE, 'key-1', SESSION_2);
      expect(await store.reserve(SCOPE, 'key-1', BODY, SESSION_2, at(1), expiresAt)).toEqual(
        claim(BODY, SESSION_1),
      );
      await store.release(SCOPE, 'key-1', SESSION_1);
      expect(await store.reserve(SCOPE, 'key-1', OTHER_BODY, SESSION_2, at(1), expiresAt)).toBeNull();
      expect(await store.reserve(SCOPE, 'key-1', OTHER_BODY, SESSION_3, at(2), expiresAt)).toEqual(
        claim(OTHER_BODY, SESSION_2, at(1)),
      );
      // Releasing a key nobody holds is harmless.
      await store.release(SCOPE, 'never-reserved', SESSION_1);
    });

    it('hands an unanswered claim over once, only as it was claimed, and ignores its old holder after', async () => {
      const store = await setUp();
      await store.reserve(SCOPE, 'key-1', BODY, SESSION_1, now, expiresAt);
      const later = at(120_000);
      expect(await store.takeOver(SCOPE, 'key-1', at(1), SESSION_2, later, at(180_000))).toBe(false);
      const outcomes = await Promise.all([
        store.takeOver(SCOPE, 'key-1', now, SESSION_2, later, at(180_000)),
        store.takeOver(SCOPE, 'key-1', now, SESSION_3, later, at(180_000)),
      ]);
      expect(outcomes.filter(Boolean)).toHaveLength(1);
      const winner = outcomes[0] ? SESSION_2 : SESSION_3;
      expect(await store.reserve(SCOPE, 'key-1', BODY, SESSION_1, at(120_001), at(180_000))).toEqual(
        claim(BODY, winner, later),
      );
      // The old holder finishing late neither answers nor frees the key it no longer holds.
      await store.complete(SCOPE, 'key-1', SESSION_1, ANSWER_1);
      await store.release(SCOPE, 'key-1', SESSION_1);
      expect(await store.reserve(SCOPE, 'key-1', BODY, SESSION_1, at(120_002), at(180_000))).toEqual(
        claim(BODY, winner, later),
      );
      await store.complete(SCOPE, 'key-1', winner, ANSWER_2);
      expect(
        (await store.reserve(SCOPE, 'key-1', BODY, SESSION_1, at(120_003), at(180_000)))?.answer,
      ).toEqual(ANSWER_2);
    });

    it('never hands over an answered claim or a key nobody holds', async () => {
      const store = await setUp();
      await store.reserve(SCOPE, 'key-1', BODY, SESSION_1, now, expiresAt);
      await store.complete(SCOPE, 'key-1', SESSION_1, ANSWER_1);
      expect(await store.takeOver(SCOPE, 'key-1', now, SESSION_2, at(120_000), at(180_000))).toBe(false);
      expect(await store.takeOver(SCOPE, 'no-such-key', now, SESSION_2, at(120_000), at(180_000))).toBe(
        false,
      );
      expect(await store.reserve(SCOPE, 'no-such-key', BODY, SESSION_3, at(1), expiresAt)).toBeNull();
    });

    it('replaces a record once it expired (now ≥ expiresAt), not before', async () => {
      const store = await setUp();
      await store.reserve(SCOPE, 'key-1', BODY, SESSION_1, now, expiresAt);
      await store.complete(SCOPE, 'key-1', SESSION_1, ANSWER_1);
      const justBefore = new Date(expiresAt.getTime() - 1);
      expect(
        await store.reserve(SCOPE, 'key-1', OTHER_BODY, SESSION_2, justBefore, at(120_000)),
      ).not.toBeNull();
      expect(await store.reserve(SCOPE, 'key-1', OTHER_BODY, SESSION_2, expiresAt, at(120_000))).toBeNull();
      expect(await store.reserve(SCOPE, 'key-1', OTHER_BODY, SESSION_3, at(60_001), at(120_000))).toEqual(
        claim(OTHER_BODY, SESSION_2, expiresAt),
      );
    });

    it('keeps scopes and keys independent', async () => {
      const store = await setUp();
      expect(await store.reserve(SCOPE, 'key-1', BODY, SESSION_1, now, expiresAt)).toBeNull();
      expect(await store.reserve(OTHER_SCOPE, 'key-1', OTHER_BODY, SESSION_2, now, expiresAt)).toBeNull();
      expect(await store.reserve(SCOPE, 'key-2', OTHER_BODY, SESSION_3, now, expiresAt)).toBeNull();
      await store.complete(SCOPE, 'key-1', SESSION_1, ANSWER_1);
      await store.complete(OTHER_SCOPE, 'key-1', SESSION_2, ANSWER_2);
      await store.release(SCOPE, 'key-2', SESSION_3);
      expect(await store.reserve(SCOPE, 'key-1', BODY, SESSION_3, at(1), expiresAt)).toEqual({
        ...claim(BODY, SESSION_1),
        answer: ANSWER_1,
      });
      expect(await store.reserve(OTHER_SCOPE, 'key-1', OTHER_BODY, SESSION_3, at(1), expiresAt)).toEqual({
        ...claim(OTHER_BODY, SESSION_2),
        answer: ANSWER_2,
      });
      expect(await store.reserve(SCOPE, 'key-2', BODY, SESSION_1, at(2), expiresAt)).toBeNull();
    });

    it('lets exactly one of 20 concurrent reserves of one key claim it', async () => {
      const store = await setUp();
      const ids = Array.from(
        { length: 20 },
        (_, i) => `0190e000-0000-7000-8000-${String(100 + i).padStart(12, '0')}`,
      );
      const outcomes = await Promise.all(
        ids.map((id) => store.reserve(SCOPE, 'race', BODY, id, now, expiresAt)),
      );
      const winner = ids[outcomes.indexOf(null)]!;
      expect(outcomes.filter((o) => o === null)).toHaveLength(1);
      expect(outcomes.filter((o) => o !== null)).toEqual(
        Array.from({ length: 19 }, () => claim(BODY, winner)),
      );
    });
  });
}
