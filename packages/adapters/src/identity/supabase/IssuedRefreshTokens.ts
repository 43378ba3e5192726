import { createHash } from 'node:crypto';

/** The sign-in session a refresh token belongs to, and how long its access tokens live. */
export interface IssuedRefreshToken {
  readonly sessionId: string;
  readonly accessTokenTtlSec: number;
}

/**
 * Which sign-in session each refresh token handed out by this process belongs to (keyed by a SHA-256
 * of the token, never the token). GoTrue's refresh tokens are opaque: when GoTrue reports a reused
 * one, this is how the service learns which session to revoke locally. Bounded; oldest first out.
 */
export class IssuedRefreshTokens {
  private readonly entries = new Map<string, IssuedRefreshToken>();
  private readonly maxEntries: number;

  constructor(maxEntries = 100_000) {
    this.maxEntries = maxEntries;
  }

  /** Records a token handed out. */
  remember(refreshToken: string, issued: IssuedRefreshToken): void {
    const key = hash(refreshToken);
    this.entries.delete(key);
    this.entries.set(key, issued);
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }

  /** The session of a token this process handed out, if it still remembers it. */
  find(refreshToken: string): IssuedRefreshToken | undefined {
    return this.entries.get(hash(refreshToken));
  }
}

function hash(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}
