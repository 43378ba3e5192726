import { AuthError, ForbiddenForApiKeyError } from '../shared/DomainError.ts';
import type { Principal } from './IdentityProvider.ts';

/** A signed-in user, or an in-process host acting for one. */
export interface UserCaller {
  readonly kind: 'user';
  readonly userId: string;
  /** The sign-in behind the caller's access token, when it came with one. */
  readonly signIn?: Principal | undefined;
}

/** A project API key (http-api.md §12): it acts for its one project only. */
export interface ApiKeyCaller {
  readonly kind: 'apiKey';
  readonly keyId: string;
  readonly projectId: string;
  /** The project's owner, whose records the key reaches within that project. */
  readonly ownerId: string;
}

/** Who is calling a use case: a user or a project API key. */
export type Caller = UserCaller | ApiKeyCaller;

/** The caller for a user id, as an in-process host acts for its users. */
export function asUser(userId: string): UserCaller {
  return { kind: 'user', userId };
}

/** The caller behind a verified access token. */
export function signedIn(principal: Principal): UserCaller {
  return { kind: 'user', userId: principal.userId, signIn: principal };
}

/**
 * The sign-in of a caller that must be a signed-in user (`/v1/auth/*`): an API key is refused with
 * `forbidden_for_api_key`.
 */
export function signInOf(caller: Caller): Principal {
  const user = requireUser(caller, 'Account endpoints');
  if (!user.signIn) throw new AuthError('unauthorized', 'This needs a signed-in user’s access token.');
  return user.signIn;
}

/** The caller as a user; an API key is refused with `forbidden_for_api_key` naming `what`. */
export function requireUser(caller: Caller, what: string): UserCaller {
  if (caller.kind === 'apiKey') {
    throw new ForbiddenForApiKeyError(`${what} need a signed-in user’s access token, not a project API key.`);
  }
  return caller;
}
