import { defineEntity, p } from '@mikro-orm/core';

/**
 * A claimed `Idempotency-Key` (`idempotency_keys`), unique per scope. `fingerprint` is a keyed
 * SHA-256 digest (hex) of the first request's fingerprint, never the body itself: bodies carry
 * env values. `sessionId` stays null while the first request runs; `answer` is then the JSON of
 * how that session answered (status, URLs, times — no env), which replays show.
 */
export const IdempotencyKeySchema = defineEntity({
  name: 'IdempotencyKey',
  tableName: 'idempotency_keys',
  properties: {
    scope: p.text().primary(),
    key: p.text().primary(),
    fingerprint: p.text(),
    sessionId: p.uuid().nullable(),
    answer: p.text().nullable(),
    createdAt: p.datetime(3),
    expiresAt: p.datetime(3),
  },
});
