import { AuthError } from '../shared/DomainError.ts';
import type { IdentityProvider, Principal } from './IdentityProvider.ts';

/** What Authenticate needs. */
export interface AuthenticateDeps {
  identity: IdentityProvider;
}

/** Turns a bearer access token into the principal it speaks for, or throws `unauthorized`. */
export class Authenticate {
  private readonly deps: AuthenticateDeps;

  constructor(deps: AuthenticateDeps) {
    this.deps = deps;
  }

  execute(input: { accessToken: string | undefined }): Promise<Principal> {
    if (!input.accessToken) throw new AuthError('unauthorized', 'A bearer access token is required.');
    return this.deps.identity.authenticate(input.accessToken);
  }
}
