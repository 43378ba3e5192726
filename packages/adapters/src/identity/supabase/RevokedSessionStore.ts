/**
 * Remembers sign-in sessions that ended (sign-out, refresh-token reuse) for as long as an access
 * token of theirs could still be presented. Access tokens are verified locally, so this record is
 * what makes a revoked session's tokens stop working before they expire. Share one store between
 * instances, or a sign-out on one is honoured by the others only when the token expires.
 */
export interface RevokedSessionStore {
  /**
   * Refuses tokens of `sessionId` until `until`; a later `until` extends an earlier record, an
   * earlier one changes nothing. Records expired at `now` may be forgotten on the way.
   */
  revoke(sessionId: string, until: Date, now: Date): Promise<void>;
  /** Whether `sessionId` is revoked at `now`. Runs on every authenticated request. */
  isRevoked(sessionId: string, now: Date): Promise<boolean>;
}
