import type { IdentityProvider, TokenGrant } from './IdentityProvider.ts';

/** What RefreshSession needs. */
export interface RefreshSessionDeps {
  identity: IdentityProvider;
}

/** Trades a refresh token for a new token pair (the old refresh token is spent). */
export class RefreshSession {
  private readonly deps: RefreshSessionDeps;

  constructor(deps: RefreshSessionDeps) {
    this.deps = deps;
  }

  execute(input: { refreshToken: string }): Promise<TokenGrant> {
    return this.deps.identity.refresh(input.refreshToken);
  }
}
