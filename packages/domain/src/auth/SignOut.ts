import type { IdentityProvider, Principal } from './IdentityProvider.ts';

/** What SignOut needs. */
export interface SignOutDeps {
  identity: IdentityProvider;
}

/** Ends the caller's sign-in session: its access and refresh tokens stop working at once. */
export class SignOut {
  private readonly deps: SignOutDeps;

  constructor(deps: SignOutDeps) {
    this.deps = deps;
  }

  async execute(input: { principal: Principal }): Promise<{ message: string }> {
    await this.deps.identity.signOut(input.principal);
    return { message: 'Signed out' };
  }
}
