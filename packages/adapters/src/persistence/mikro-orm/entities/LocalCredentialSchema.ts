import { defineEntity, p } from '@mikro-orm/core';

/**
 * The local identity provider's credentials (`local_credentials`). Its own table, not a foreign key
 * to `users`: sign-up stores the credential first and records the service's user afterwards.
 */
export const LocalCredentialSchema = defineEntity({
  name: 'LocalCredential',
  tableName: 'local_credentials',
  properties: {
    userId: p.uuid().primary(),
    email: p.text().unique(),
    passwordHash: p.text(),
    metadata: p.json<Record<string, unknown>>(),
    createdAt: p.datetime(3),
  },
});
