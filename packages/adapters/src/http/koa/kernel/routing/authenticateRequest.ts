import { API_KEY_MARKER, AuthError, type Authenticate, type Caller } from '@browserdeck/domain';
import type { Context } from 'koa';

/** `Bearer <token68>` (RFC 6750 §2.1); the scheme is case-insensitive. */
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

/** The header Browserbase's clients send their API key in; Browserdeck's project keys work there too. */
export const API_KEY_HEADER = 'X-BB-API-Key';

/**
 * The caller behind the request: `Authorization: Bearer <access_token | bdk_ key>`, or a project API
 * key in `X-BB-API-Key` (http-api.md §12). A missing or malformed credential and an unknown, expired
 * or revoked token or key are all 401 `unauthorized`.
 */
export async function authenticateRequest(
  ctx: Pick<Context, 'get'>,
  authenticate: Pick<Authenticate, 'execute'>,
): Promise<Caller> {
  const authorization = ctx.get('Authorization');
  const apiKey = ctx.get(API_KEY_HEADER).trim();
  if (!authorization && apiKey) {
    // Only project API keys travel here; a user's access token belongs in Authorization.
    if (!apiKey.startsWith(API_KEY_MARKER)) {
      throw new AuthError('unauthorized', `${API_KEY_HEADER} takes a project API key (bdk_…).`);
    }
    return authenticate.execute({ accessToken: apiKey });
  }
  const match = BEARER.exec(authorization);
  if (!match) {
    throw new AuthError(
      'unauthorized',
      authorization
        ? 'The Authorization header must read "Bearer <access_token>" or "Bearer <API key>".'
        : 'This endpoint needs an Authorization: Bearer <access_token> header, or a project API key.',
    );
  }
  return authenticate.execute({ accessToken: match[1] });
}
