import type { IdentityProvider, TokenGrant } from './IdentityProvider.ts';
import { refuseDisabledAccount } from './refuseDisabledAccount.ts';
import type { UserRepository } from './UserRepository.ts';

/** What RefreshSession needs. */
export interface RefreshSessionDeps {
  identity: IdentityProvider;
  users: UserRepository;
}

/** Trades a refresh token for a new token pair (the old one is spent); a disabled account is refused. */
export class RefreshSession {
  private readonly deps: RefreshSessionDeps;

  constructor(deps: RefreshSessionDeps) {
    this.deps = deps;
  }

  async execute(input: { refreshToken: string }): Promise<TokenGrant> {
    const grant = await this.deps.identity.refresh(input.refreshToken);
    await refuseDisabledAccount(this.deps.users, grant.user.id);
    return grant;
  }
}
