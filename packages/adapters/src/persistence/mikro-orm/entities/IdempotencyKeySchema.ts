import { defineEntity, p } from '@mikro-orm/core';

/**
 * A claimed `Idempotency-Key` (`idempotency_keys`), unique per scope. `fingerprint` is a keyed
 * SHA-256 digest (hex) of the first request's fingerprint, never the body itself: bodies carry
 * env values. `sessionId` is the session the claiming request creates, chosen when it claims the
 * key; `answer` stays null while that request runs, then holds the JSON of how the session
 * answered (status, URLs, times — no env), which replays show, sealed (`SecretBox`: the connect
 * URL carries a signing key; rows from before hold the plain JSON). `createdAt` is when the key was
 * claimed (or last taken over).
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
