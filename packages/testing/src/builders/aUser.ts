import { User } from '@browserdeck/domain';
import { BUILT_AT, builtId, nextBuiltNumber } from './builderDefaults.ts';

/** What `aUser` may be told; everything else has a valid default. */
export type UserOverrides = Partial<Parameters<typeof User.create>[0]>;

/** A valid user built through `User.create`: a fresh id, `user-<n>@example.com`, created at `BUILT_AT`. */
export function aUser(overrides: UserOverrides = {}): User {
  const n = nextBuiltNumber();
  return User.create({ id: builtId(n), email: `user-${n}@example.com`, createdAt: BUILT_AT, ...overrides });
}
