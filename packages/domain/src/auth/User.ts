/** The public face of a user: what every auth response shows. */
export interface UserIdentity {
  readonly id: string;
  readonly email: string;
}

/** A user as the service records it, whichever identity provider vouches for them. */
export class User implements UserIdentity {
  readonly id!: string;
  readonly email!: string;
  readonly createdAt!: Date;

  private constructor() {}

  /** A new user record for an identity the provider has vouched for. */
  static create(props: { id: string; email: string; createdAt: Date }): User {
    return Object.assign(new User(), props);
  }
}
