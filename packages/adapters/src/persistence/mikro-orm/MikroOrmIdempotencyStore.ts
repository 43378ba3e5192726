import type { IdempotencyRecord, IdempotencyStore, SessionAnswer } from '@browserdeck/domain';
import type { SecretBox } from '../secrets/SecretBox.ts';
import { type BrowserdeckOrm, dialectOf } from './BrowserdeckOrm.ts';
import { isUuid, withDatabaseErrors } from './databaseErrors.ts';
import { IdempotencyKeySchema } from './entities/IdempotencyKeySchema.ts';
import { openSealedOrPlain } from './secretRecords.ts';
import { sqlTime } from './sqlTime.ts';

/** What `MikroOrmIdempotencyStore` needs. */
export interface MikroOrmIdempotencyStoreDeps {
  orm: BrowserdeckOrm;
  /**
   * Keys the fingerprint digests (request bodies carry env values; only a digest is stored) and
   * seals the recorded answers (they hold the session's `connectUrl`, a signing key).
   */
  secrets: SecretBox;
}

/**
 * Claims the key: inserts it, or takes over an expired row, in one statement. Returns a row when
 * this call claimed the key; none when a live claim exists.
 */
const CLAIM_SQL = `insert into idempotency_keys (scope, "key", fingerprint, session_id, created_at, expires_at)
  values (?, ?, ?, ?, ?, ?)
  on conflict (scope, "key") do update set fingerprint = excluded.fingerprint, session_id = excluded.session_id,
    answer = null, created_at = excluded.created_at, expires_at = excluded.expires_at
  where idempotency_keys.expires_at <= ?
  returning scope`;

/** Rounds of claim-then-read before giving up (a live claim released between the two). */
const MAX_ATTEMPTS = 5;

/**
 * `IdempotencyStore` on MikroORM (SQLite, PostgreSQL), atomic across server instances. The stored
 * fingerprint is `secrets.digest(fingerprint)`, so a returned record's `fingerprint` is the
 * caller's own when the digests match, and a `hmac-sha256:<digest>` string (never equal to a
 * request fingerprint) when they do not. The recorded answer is sealed by `secrets`.
 */
export class MikroOrmIdempotencyStore implements IdempotencyStore {
  private readonly deps: MikroOrmIdempotencyStoreDeps;

  constructor(deps: MikroOrmIdempotencyStoreDeps) {
    this.deps = deps;
  }

  async reserve(
    scope: string,
    key: string,
    fingerprint: string,
    sessionId: string,
    now: Date,
    expiresAt: Date,
  ): Promise<IdempotencyRecord | null> {
    const dialect = dialectOf(this.deps.orm);
    const digest = this.deps.secrets.digest(fingerprint);
    const params = [
      scope,
      key,
      digest,
      sessionId,
      sqlTime(dialect, now),
      sqlTime(dialect, expiresAt),
      sqlTime(dialect, now),
    ];
    return withDatabaseErrors(async () => {
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
        const em = this.em();
        const claimed = await em.getConnection().execute<unknown[]>(CLAIM_SQL, params);
        if (claimed.length > 0) return null;
        const existing = await em.findOne(IdempotencyKeySchema, { scope, key, expiresAt: { $gt: now } });
        if (existing) {
          return {
            fingerprint:
              existing.fingerprint === digest ? fingerprint : `hmac-sha256:${existing.fingerprint}`,
            sessionId: existing.sessionId ?? null,
            answer: existing.answer ? parseAnswer(this.openAnswer(existing.answer)) : null,
            claimedAt: existing.createdAt,
          };
        }
        // The live claim was released (or expired) between the two statements: claim again.
      }
      throw new Error(`Could not claim the idempotency key after ${MAX_ATTEMPTS} attempts.`);
    });
  }

  async takeOver(
    scope: string,
    key: string,
    claimedAt: Date,
    sessionId: string,
    now: Date,
    expiresAt: Date,
  ): Promise<boolean> {
    if (!isUuid(sessionId)) return false;
    // Compare-and-set on the claim time: of two retries taking over one claim, one matches.
    const changed = await withDatabaseErrors(() =>
      this.em().nativeUpdate(
        IdempotencyKeySchema,
        { scope, key, createdAt: claimedAt, answer: null },
        { sessionId, createdAt: now, expiresAt },
      ),
    );
    return changed > 0;
  }

  async complete(scope: string, key: string, sessionId: string, answer: SessionAnswer): Promise<void> {
    if (!isUuid(sessionId)) return;
    await withDatabaseErrors(() =>
      this.em().nativeUpdate(
        IdempotencyKeySchema,
        { scope, key, ...heldBy(sessionId) },
        { sessionId, answer: this.deps.secrets.seal(JSON.stringify(answer)) },
      ),
    );
  }

  async release(scope: string, key: string, sessionId: string): Promise<void> {
    if (!isUuid(sessionId)) return;
    await withDatabaseErrors(() =>
      this.em().nativeDelete(IdempotencyKeySchema, { scope, key, ...heldBy(sessionId) }),
    );
  }

  /** The answer's JSON: sealed, or plain (`{…}`) in a row recorded before answers were sealed. */
  private openAnswer(stored: string): string {
    return openSealedOrPlain(this.deps.secrets, stored, (value) => value.startsWith('{'));
  }

  private em() {
    return this.deps.orm.em.fork();
  }
}

/** The claim of `sessionId` (or one made before sessions were chosen at claim time). */
function heldBy(sessionId: string) {
  return { $or: [{ sessionId }, { sessionId: null }] };
}

const ANSWER_DATES = ['updatedAt', 'endedAt', 'expiresAt', 'lastSyncedAt'] as const;

/** A stored answer, its times (JSON strings) as dates again. */
function parseAnswer(json: string): SessionAnswer {
  const answer = JSON.parse(json) as Record<string, unknown>;
  for (const field of ANSWER_DATES) {
    const value = answer[field];
    answer[field] = typeof value === 'string' ? new Date(value) : null;
  }
  return answer as unknown as SessionAnswer;
}
