import type { IdempotencyRecord, IdempotencyStore, SessionAnswer } from '@browserdeck/domain';
import type { ExpressionBuilder } from 'kysely';
import type { SecretBox } from '../secrets/SecretBox.ts';
import type { BrowserdeckOrm } from './BrowserdeckOrm.ts';
import { isUuid, withDatabaseErrors } from './databaseErrors.ts';
import { IdempotencyKeySchema } from './entities/IdempotencyKeySchema.ts';
import { type KyselyQueries, queriesOf } from './KyselyQueries.ts';
import type { BrowserdeckDb } from './kyselyDatabase.ts';
import { openSealedOrPlain } from './secretRecords.ts';

/** What `MikroOrmIdempotencyStore` needs. */
export interface MikroOrmIdempotencyStoreDeps {
  orm: BrowserdeckOrm;
  /**
   * Keys the fingerprint digests (request bodies carry env values; only a digest is stored) and
   * seals the recorded answers (they hold the session's `connectUrl`, a signing key).
   */
  secrets: SecretBox;
}

/** Rounds of claim-then-read before giving up (a live claim released between the two). */
const MAX_ATTEMPTS = 5;

/**
 * `IdempotencyStore` on MikroORM (SQLite, PostgreSQL), atomic across server instances, through its
 * Kysely integration (`KyselyQueries`). The stored fingerprint is `secrets.digest(fingerprint)`, so
 * a returned record's `fingerprint` is the caller's own when the digests match, and a
 * `hmac-sha256:<digest>` string (never equal to a request fingerprint) when they do not. The
 * recorded answer is sealed by `secrets`.
 */
export class MikroOrmIdempotencyStore implements IdempotencyStore {
  private readonly queries: KyselyQueries;
  private readonly secrets: SecretBox;

  constructor(deps: MikroOrmIdempotencyStoreDeps) {
    this.queries = queriesOf(deps.orm);
    this.secrets = deps.secrets;
  }

  async reserve(
    scope: string,
    key: string,
    fingerprint: string,
    sessionId: string,
    now: Date,
    expiresAt: Date,
  ): Promise<IdempotencyRecord | null> {
    const digest = this.secrets.digest(fingerprint);
    return withDatabaseErrors(async () => {
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
        const claim = {
          scope,
          key,
          fingerprint: digest,
          session_id: sessionId,
          created_at: now,
          expires_at: expiresAt,
        };
        if (await this.claim(claim)) {
          return null;
        }
        const { db } = this.queries;
        const [existing] = await this.queries.entities(
          IdempotencyKeySchema,
          db
            .selectFrom('idempotency_keys')
            .selectAll()
            .where('scope', '=', scope)
            .where('key', '=', key)
            .where('expires_at', '>', now),
        );
        if (existing) {
          const stored = existing.fingerprint as string;
          const answer = existing.answer as string | null | undefined;
          return {
            fingerprint: stored === digest ? fingerprint : `hmac-sha256:${stored}`,
            sessionId: (existing.sessionId as string | null | undefined) ?? null,
            answer: answer ? parseAnswer(this.openAnswer(answer)) : null,
            claimedAt: existing.createdAt as Date,
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
    const { db } = this.queries;
    // Compare-and-set on the claim time: of two retries taking over one claim, one matches.
    const changed = await withDatabaseErrors(() =>
      this.queries.run(
        db
          .updateTable('idempotency_keys')
          .set({ session_id: sessionId, created_at: now, expires_at: expiresAt })
          .where('scope', '=', scope)
          .where('key', '=', key)
          .where('created_at', '=', claimedAt)
          .where('answer', 'is', null),
      ),
    );
    return changed > 0;
  }

  async complete(scope: string, key: string, sessionId: string, answer: SessionAnswer): Promise<void> {
    if (!isUuid(sessionId)) return;
    const { db } = this.queries;
    const sealed = this.secrets.seal(JSON.stringify(answer));
    await withDatabaseErrors(() =>
      this.queries.run(
        db
          .updateTable('idempotency_keys')
          .set({ session_id: sessionId, answer: sealed })
          .where('scope', '=', scope)
          .where('key', '=', key)
          .where(heldBy(sessionId)),
      ),
    );
  }

  async release(scope: string, key: string, sessionId: string): Promise<void> {
    if (!isUuid(sessionId)) return;
    const { db } = this.queries;
    await withDatabaseErrors(() =>
      this.queries.run(
        db
          .deleteFrom('idempotency_keys')
          .where('scope', '=', scope)
          .where('key', '=', key)
          .where(heldBy(sessionId)),
      ),
    );
  }

  /**
   * Claims the key: inserts it, or takes over an expired row, in one statement. True when this
   * call claimed the key; false while a live claim exists.
   */
  private async claim(row: {
    scope: string;
    key: string;
    fingerprint: string;
    session_id: string;
    created_at: Date;
    expires_at: Date;
  }): Promise<boolean> {
    const { db } = this.queries;
    const claimed = await this.queries.rows(
      db
        .insertInto('idempotency_keys')
        .values(row)
        .onConflict((oc) =>
          oc
            .columns(['scope', 'key'])
            .doUpdateSet((eb) => ({
              fingerprint: eb.ref('excluded.fingerprint'),
              session_id: eb.ref('excluded.session_id'),
              answer: null,
              created_at: eb.ref('excluded.created_at'),
              expires_at: eb.ref('excluded.expires_at'),
            }))
            .where('idempotency_keys.expires_at', '<=', row.created_at),
        )
        .returning('scope'),
    );
    return claimed.length > 0;
  }

  /** The answer's JSON: sealed, or plain (`{…}`) in a row recorded before answers were sealed. */
  private openAnswer(stored: string): string {
    return openSealedOrPlain(this.secrets, stored, (value) => value.startsWith('{'));
  }
}

/** The claim of `sessionId` (or one made before sessions were chosen at claim time). */
function heldBy(sessionId: string) {
  return (eb: ExpressionBuilder<BrowserdeckDb, 'idempotency_keys'>) =>
    eb.or([eb('session_id', '=', sessionId), eb('session_id', 'is', null)]);
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
