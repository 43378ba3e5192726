import { AuthError, type Authenticate, type Principal } from '@browserdeck/domain';

/** `Bearer <token68>` (RFC 6750 §2.1); the scheme is case-insensitive. */
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

/**
 * The principal behind the request's `Authorization: Bearer` header. A missing or malformed header
 * and an unknown, expired or revoked token are all 401 `unauthorized`.
 */
export async function authenticateRequest(
  authorization: string,
  authenticate: Pick<Authenticate, 'execute'>,
): Promise<Principal> {
  const match = BEARER.exec(authorization);
  if (!match) {
    throw new AuthError(
      'unauthorized',
      authorization
        ? 'The Authorization header must read "Bearer <access_token>".'
        : 'This endpoint needs an Authorization: Bearer <access_token> header.',
    );
  }
  return authenticate.execute({ accessToken: match[1] });
}
