import { defineEntity, p } from '@mikro-orm/core';

/**
 * A Supabase refresh token handed out, known by its hash, and the sign-in session it belongs to
 * (`supabase_issued_refresh_tokens`); kept until `expiresAt` for reuse detection.
 */
export const SupabaseIssuedRefreshTokenSchema = defineEntity({
  name: 'SupabaseIssuedRefreshToken',
  tableName: 'supabase_issued_refresh_tokens',
  properties: {
    tokenHash: p.text().primary(),
    sessionId: p.text(),
    accessTokenTtlSec: p.integer(),
    expiresAt: p.datetime(3).index(),
  },
});
