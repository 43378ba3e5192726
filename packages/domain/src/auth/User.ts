import type { EntityState } from '../shared/EntityState.ts';

/** The public face of a user: what every auth response shows. */
export interface UserIdentity {
  readonly id: string;
  readonly email: string;
}

/** A user's stored fields: what `User.restore` takes. */
export type UserState = EntityState<User>;

/** A user as the service records it, whichever identity provider vouches for them. */
export class User implements UserIdentity {
  readonly id!: string;
  readonly email!: string;
  readonly createdAt!: Date;
  /** When an operator disabled the account (SPEC §17); null while it is enabled. */
  readonly disabledAt!: Date | null;

  private constructor() {}

  /** A new, enabled user record for an identity the provider has vouched for. */
  static create(props: { id: string; email: string; createdAt: Date }): User {
    return Object.assign(new User(), { ...props, disabledAt: null });
  }

  /**
   * For repositories: the user `state` holds, as it was stored. No validation (a stored row was
   * valid when written); `state`'s fields become the instance's.
   */
  static restore(state: UserState): User {
    return Object.assign(new User(), state);
  }
}
