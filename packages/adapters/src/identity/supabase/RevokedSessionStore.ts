/**
 * Remembers sign-in sessions that ended (sign-out, refresh-token reuse) for as long as an access
 * token of theirs could still be presented. Access tokens are verified locally, so this record is
 * what makes a revoked session's tokens stop working before they expire.
 */
export interface RevokedSessionStore {
  /** Refuses tokens of `sessionId` until `until`; a later `until` extends an earlier record. */
  revoke(sessionId: string, until: Date): Promise<void>;
  /** Whether `sessionId` is revoked at `now`. */
  isRevoked(sessionId: string, now: Date): Promise<boolean>;
}
