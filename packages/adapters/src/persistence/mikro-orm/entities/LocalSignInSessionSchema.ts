import { defineEntity, p } from '@mikro-orm/core';
import { LocalCredentialSchema } from './LocalCredentialSchema.ts';

/** One sign-in of the local identity provider (`local_sign_in_sessions`). */
export const LocalSignInSessionSchema = defineEntity({
  name: 'LocalSignInSession',
  tableName: 'local_sign_in_sessions',
  properties: {
    id: p.uuid().primary(),
    userId: () =>
      p.manyToOne(LocalCredentialSchema).mapToPk().fieldName('user_id').deleteRule('cascade').index(),
    createdAt: p.datetime(3),
    revokedAt: p.datetime(3).nullable(),
  },
});
