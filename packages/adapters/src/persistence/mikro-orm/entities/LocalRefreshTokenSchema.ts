import { defineEntity, p } from '@mikro-orm/core';
import { LocalCredentialSchema } from './LocalCredentialSchema.ts';
import { LocalSignInSessionSchema } from './LocalSignInSessionSchema.ts';

/** A refresh token of the local identity provider, known by its hash (`local_refresh_tokens`). */
export const LocalRefreshTokenSchema = defineEntity({
  name: 'LocalRefreshToken',
  tableName: 'local_refresh_tokens',
  properties: {
    tokenHash: p.text().primary(),
    sessionId: () =>
      p.manyToOne(LocalSignInSessionSchema).mapToPk().fieldName('session_id').deleteRule('cascade').index(),
    userId: () =>
      p.manyToOne(LocalCredentialSchema).mapToPk().fieldName('user_id').deleteRule('cascade').index(),
    createdAt: p.datetime(3),
    expiresAt: p.datetime(3),
    usedAt: p.datetime(3).nullable(),
  },
});
