import { defineEntity, p } from '@mikro-orm/core';

/**
 * A Supabase sign-in session whose access tokens are refused until `revokedUntil`
 * (`supabase_revoked_sessions`). Keyed by the token's `session_id` claim, kept as text: it comes
 * from GoTrue, not from us.
 */
export const SupabaseRevokedSessionSchema = defineEntity({
  name: 'SupabaseRevokedSession',
  tableName: 'supabase_revoked_sessions',
  properties: {
    sessionId: p.text().primary(),
    revokedUntil: p.datetime(3).index(),
  },
});
