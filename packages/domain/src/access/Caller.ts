import type { Principal } from '../auth/IdentityProvider.ts';
import { AuthError, ForbiddenForApiKeyError } from '../shared/DomainError.ts';
import type { ApiKeyRole } from './projectRoles.ts';

/** Where a call came from, for the audit log (SPEC §17): the request's id and the client's address. */
export interface RequestOrigin {
  readonly requestId: string;
  readonly ip: string;
}

/** A signed-in user, or an in-process host acting for one. */
export interface UserCaller {
  readonly kind: 'user';
  readonly userId: string;
  /** The sign-in behind the caller's access token, when it came with one. */
  readonly signIn?: Principal | undefined;
  /** The request behind the call; absent for in-process calls. */
  readonly origin?: RequestOrigin | undefined;
}

/** A project API key (http-api.md §12): it acts for its one project only. */
export interface ApiKeyCaller {
  readonly kind: 'apiKey';
  readonly keyId: string;
  readonly projectId: string;
  /** The key's name, for the audit log (never the key itself). */
  readonly keyName: string;
  /** The role the key acts with in its project: `developer`, or the narrower `viewer`. */
  readonly role: ApiKeyRole;
  /** The request behind the call. */
  readonly origin?: RequestOrigin | undefined;
}

/**
 * The service itself (a worker running a queued run, the reconciler, an operator's sweep): it acts
 * in `projectId` as that project's owner would, and the audit log names it `system`.
 */
export interface SystemCaller {
  readonly kind: 'system';
  readonly projectId: string;
}

/** Who is calling a use case: a user, a project API key, or the service itself. */
export type Caller = UserCaller | ApiKeyCaller | SystemCaller;

/** The service acting in `projectId` (background work). */
export function asSystem(projectId: string): SystemCaller {
  return { kind: 'system', projectId };
}

/** `caller` with the request it came with. */
export function withOrigin<C extends Caller>(caller: C, origin: RequestOrigin): C {
  return caller.kind === 'system' ? caller : { ...caller, origin };
}

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
  if (caller.kind === 'system') throw new AuthError('unauthorized', `${what} need a signed-in user.`);
  return caller;
}
