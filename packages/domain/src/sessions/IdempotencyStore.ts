import type { SessionAnswer } from './BrowserSession.ts';

/** What is stored under an idempotency key. */
export interface IdempotencyRecord {
  /** Fingerprint of the first request's body. */
  readonly fingerprint: string;
  /**
   * The session the claiming request creates, chosen when it claimed the key, so a retry finds it
   * even if recording the answer failed. (Null only on keys claimed before ids were chosen up front.)
   */
  readonly sessionId: string | null;
  /** How that session was when the first request answered (the contract: a retry gets the first response); null while it runs. */
  readonly answer: SessionAnswer | null;
  /** When the request holding the key claimed it: a claim unanswered for long was abandoned. */
  readonly claimedAt: Date;
}

/**
 * Remembers `Idempotency-Key`s of session creates for a while (24 h), in the database so that
 * restarts and other server instances see them.
 */
export interface IdempotencyStore {
  /**
   * Claims `key` within `scope` for a request with `fingerprint` that will create session
   * `sessionId`. Returns null when this call claimed it (go ahead), else the existing record. Atomic
   * across instances.
   */
  reserve(
    scope: string,
    key: string,
    fingerprint: string,
    sessionId: string,
    now: Date,
    expiresAt: Date,
  ): Promise<IdempotencyRecord | null>;
  /**
   * Takes over an abandoned claim: only while it is still unanswered and still the one claimed at
   * `claimedAt` (so of two retries only one wins). True when this call now holds the key, for a
   * request that will create `sessionId`.
   */
  takeOver(
    scope: string,
    key: string,
    claimedAt: Date,
    sessionId: string,
    now: Date,
    expiresAt: Date,
  ): Promise<boolean>;
  /** Records how the claimed request's session `sessionId` answered; a claim taken over since is left alone. */
  complete(scope: string, key: string, sessionId: string, answer: SessionAnswer): Promise<void>;
  /** Gives the claim for `sessionId` up after a failed request, so a retry can go ahead. */
  release(scope: string, key: string, sessionId: string): Promise<void>;
}
