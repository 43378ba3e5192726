import type { TokenGrant } from '@browserdeck/domain';
import { decodeJwt } from 'jose';

/** A grant, and the sign-in session its tokens belong to. */
export interface SupabaseGrant {
  readonly grant: TokenGrant;
  readonly sessionId: string;
  /** Lifetime of the access token, in seconds (`exp - iat`). */
  readonly accessTokenTtlSec: number;
}

/**
 * Reads GoTrue's session answer (`{ access_token, refresh_token, expires_in, expires_at, user }`).
 * The expiry comes from the token's own `exp`, so the grant and the principal agree to the
 * millisecond. Throws a plain error on an answer of another shape: a fault, not a user mistake.
 */
export function toTokenGrant(body: unknown): SupabaseGrant {
  const answer = (body ?? {}) as Record<string, unknown>;
  const user = (answer.user ?? {}) as Record<string, unknown>;
  const { access_token: accessToken, refresh_token: refreshToken } = answer;
  if (typeof accessToken !== 'string' || typeof refreshToken !== 'string' || typeof user.id !== 'string') {
    throw new Error('GoTrue answered with no session.');
  }
  const claims = decodeJwt(accessToken);
  if (typeof claims.exp !== 'number' || typeof claims.session_id !== 'string') {
    throw new Error('GoTrue issued an access token without exp or session_id.');
  }
  const expiresIn =
    typeof answer.expires_in === 'number'
      ? answer.expires_in
      : claims.exp - (claims.iat ?? Math.floor(Date.now() / 1000));
  return {
    grant: {
      accessToken,
      refreshToken,
      expiresIn,
      expiresAt: new Date(claims.exp * 1000),
      user: { id: user.id, email: typeof user.email === 'string' ? user.email : '' },
    },
    sessionId: claims.session_id,
    accessTokenTtlSec: typeof claims.iat === 'number' ? claims.exp - claims.iat : expiresIn,
  };
}
