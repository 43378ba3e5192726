import type { TokenGrant } from '@browserdeck/domain';
import type { z } from 'zod';
import { isoTimestamp } from '../shared/isoTimestamp.ts';
import type { TokenResponse } from './authSchemas.ts';

/** The JSON of a token pair (http-api.md §3). */
export type TokenResponseJson = z.output<typeof TokenResponse>;

/** A sign-in or refresh grant as the API shows it. */
export function presentTokenGrant(grant: TokenGrant): TokenResponseJson {
  return {
    access_token: grant.accessToken,
    refresh_token: grant.refreshToken,
    token_type: 'bearer',
    expires_in: grant.expiresIn,
    expires_at: isoTimestamp(grant.expiresAt),
    user: { id: grant.user.id, email: grant.user.email },
  };
}
