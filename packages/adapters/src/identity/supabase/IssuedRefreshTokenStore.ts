import { createHash } from 'node:crypto';

/** The sign-in session a refresh token belongs to, and how long its access tokens live. */
export interface IssuedRefreshToken {
  readonly sessionId: string;
  readonly accessTokenTtlSec: number;
}

/**
 * Which sign-in session each refresh token handed out belongs to, known by the token's hash
 * (`hashIssuedRefreshToken`), never the token. GoTrue's refresh tokens are opaque: when GoTrue
 * reports a reused one, this is how the service learns which session to revoke locally. Share one
 * store between instances, or reuse detected on another instance than the issuing one is missed.
 */
export interface IssuedRefreshTokenStore {
  /**
   * Records a token handed out, to be remembered until `until`; a repeat replaces the record.
   * Records expired at `now` may be forgotten on the way.
   */
  remember(tokenHash: string, issued: IssuedRefreshToken, until: Date, now: Date): Promise<void>;
  /** The session of a remembered token still kept at `now`, or null. */
  find(tokenHash: string, now: Date): Promise<IssuedRefreshToken | null>;
}

/** The form an issued refresh token is stored and looked up in: base64url SHA-256 of its value. */
export function hashIssuedRefreshToken(refreshToken: string): string {
  return createHash('sha256').update(refreshToken, 'utf8').digest('base64url');
}
