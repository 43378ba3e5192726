import type { SessionAnswer } from './BrowserSession.ts';

/** What is stored under an idempotency key. */
export interface IdempotencyRecord {
  /** Fingerprint of the first request's body. */
  readonly fingerprint: string;
  /** The session the first request created; null while that request is still running. */
  readonly sessionId: string | null;
  /** How that session was when the first request answered (SPEC: a retry gets the first response). */
  readonly answer: SessionAnswer | null;
}

/**
 * Remembers `Idempotency-Key`s of session creates for a while (24 h), in the database so that
 * restarts and other server instances see them.
 */
export interface IdempotencyStore {
  /**
   * Claims `key` within `scope` for a request with `fingerprint`. Returns null when this call claimed
   * it (go ahead), else the existing record. Atomic across instances.
   */
  reserve(
    scope: string,
    key: string,
    fingerprint: string,
    now: Date,
    expiresAt: Date,
  ): Promise<IdempotencyRecord | null>;
  /** Records the session the claimed request created, and how it answered. */
  complete(scope: string, key: string, sessionId: string, answer: SessionAnswer): Promise<void>;
  /** Gives the claim up after a failed request, so a retry can go ahead. */
  release(scope: string, key: string): Promise<void>;
}
