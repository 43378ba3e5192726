import { User } from '@browserdeck/domain';
import { defineEntity, type EntityCtor, p } from '@mikro-orm/core';

/**
 * Maps the domain `User` onto the `users` table from outside: no decorators on the domain class.
 * MikroORM hydrates loaded rows through `Object.create(User.prototype)`, so the private constructor
 * is never called.
 */
export const UserSchema = defineEntity<User>({
  // The domain keeps its constructor private; MikroORM only needs the prototype.
  class: User as unknown as EntityCtor<User>,
  tableName: 'users',
  properties: {
    id: p.uuid().primary(),
    email: p.text(),
    createdAt: p.datetime(3),
  },
});
