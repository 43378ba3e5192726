import type { Clock } from '../shared/Clock.ts';
import type { Principal } from './IdentityProvider.ts';
import { User, type UserIdentity } from './User.ts';
import type { UserRepository } from './UserRepository.ts';

/** What GetCurrentUser needs. */
export interface GetCurrentUserDeps {
  users: UserRepository;
  clock: Clock;
}

/** The user the bearer token identifies, recorded in the service's users on first sight. */
export class GetCurrentUser {
  private readonly deps: GetCurrentUserDeps;

  constructor(deps: GetCurrentUserDeps) {
    this.deps = deps;
  }

  async execute(input: { principal: Principal }): Promise<{ user: UserIdentity }> {
    const user = await this.deps.users.ensure(
      User.create({
        id: input.principal.userId,
        email: input.principal.email,
        createdAt: this.deps.clock.now(),
      }),
    );
    return { user: { id: user.id, email: user.email } };
  }
}
