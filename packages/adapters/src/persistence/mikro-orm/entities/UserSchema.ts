import { User } from '@browserdeck/domain';
import { defineEntity, type EntityCtor, p } from '@mikro-orm/core';

/** The columns of `users`, each named once: the Kysely queries are typed from them too. */
const userProperties = {
  id: p.uuid().primary(),
  email: p.text(),
  createdAt: p.datetime(3),
  // When an operator disabled the account (SPEC §17); null while it is enabled.
  disabledAt: p.datetime(3).nullable(),
};

/**
 * Maps the domain `User` onto the `users` table from outside: no decorators on the domain class.
 * The repository rebuilds users through `User.restore`, so the private constructor is never called.
 */
export const UserSchema = defineEntity<User, typeof userProperties>({
  // The domain keeps its constructor private; MikroORM only needs the prototype.
  class: User as unknown as EntityCtor<User>,
  tableName: 'users',
  properties: userProperties,
});
