import { signInOf } from '@browserdeck/domain';
import { type AnyRoute, defineRoute } from '../../kernel/routing/RouteDefinition.ts';
import { emptyBody } from '../shared/commonSchemas.ts';
import type { UseCasesOf } from '../shared/UseCasesOf.ts';
import {
  RefreshBody,
  SignInBody,
  SignOutResponse,
  SignUpBody,
  SyncResponse,
  TokenResponse,
  UserEnvelope,
} from './authSchemas.ts';
import { presentTokenGrant } from './presentTokenGrant.ts';

/**
 * The use cases behind `/v1/auth`; `authenticate` turns a bearer access token into its principal
 * (401 `unauthorized` otherwise).
 */
export type AuthRouteDeps = UseCasesOf<
  'auth',
  'authenticate' | 'signUp' | 'signIn' | 'refreshSession' | 'signOut' | 'getCurrentUser' | 'syncUser'
>;

/** These routes' OpenAPI tag and what it groups. */
export const AUTH_TAG = {
  name: 'Authentication',
  description:
    'Sign-up, sign-in and token refresh, which need no access token; sign-out, the current user and sync, which do.',
};
const TAG = AUTH_TAG.name;

/** `/v1/auth`: sign-up, sign-in, refresh, sign-out, current user, sync (http-api.md §3). */
export function authRoutes(deps: AuthRouteDeps): AnyRoute[] {
  return [
    defineRoute({
      method: 'POST',
      path: '/v1/auth/signup',
      operationId: 'signUp',
      summary: 'Create a user',
      description:
        'The e-mail is normalised (NFKC, trimmed, lower-cased) and must not be registered yet. ' +
        'Rate limited per client address and per e-mail. `SIGNUP=invite` needs an `invitation` for ' +
        'the e-mail, `SIGNUP=closed` an operator’s; operators (`ADMIN_EMAILS`) are always admitted; ' +
        'else 403 `signup_closed`.',
      tag: TAG,
      auth: 'none',
      body: SignUpBody,
      responses: { 201: { description: 'The user was created.', schema: UserEnvelope } },
      errors: ['email_taken', 'signup_closed', 'rate_limited', 'identity_unavailable'],
      handle: async ({ body, clientAddress }) => ({
        status: 201,
        body: await deps.signUp.execute({ ...body, clientAddress }),
      }),
    }),
    defineRoute({
      method: 'POST',
      path: '/v1/auth/signin',
      operationId: 'signIn',
      summary: 'Exchange e-mail and password for a token pair',
      description:
        'An unknown e-mail and a wrong password get the same answer. Rate limited per client address ' +
        'and per e-mail. The access token is short-lived; the refresh token rotates on every use.',
      tag: TAG,
      auth: 'none',
      body: SignInBody,
      responses: { 200: { description: 'Signed in.', schema: TokenResponse } },
      errors: ['invalid_credentials', 'account_disabled', 'rate_limited', 'identity_unavailable'],
      handle: async ({ body, clientAddress }) => ({
        status: 200,
        body: presentTokenGrant(await deps.signIn.execute({ ...body, clientAddress })),
      }),
    }),
    defineRoute({
      method: 'POST',
      path: '/v1/auth/refresh',
      operationId: 'refreshSession',
      summary: 'Trade a refresh token for a new token pair',
      description: 'Refresh tokens rotate on every use; presenting a spent one revokes the whole sign-in.',
      tag: TAG,
      auth: 'none',
      body: RefreshBody,
      responses: { 200: { description: 'A new token pair.', schema: TokenResponse } },
      errors: ['invalid_refresh_token', 'account_disabled', 'identity_unavailable'],
      handle: async ({ body }) => ({
        status: 200,
        body: presentTokenGrant(await deps.refreshSession.execute({ refreshToken: body.refresh_token })),
      }),
    }),
    defineRoute({
      method: 'POST',
      path: '/v1/auth/signout',
      operationId: 'signOut',
      summary: 'End the bearer’s sign-in session',
      description: 'Its refresh tokens and the access token used here stop working at once.',
      tag: TAG,
      auth: 'user',
      body: emptyBody,
      responses: { 200: { description: 'Signed out.', schema: SignOutResponse } },
      errors: ['identity_unavailable'],
      handle: async ({ caller }) => ({
        status: 200,
        body: await deps.signOut.execute({ principal: signInOf(caller) }),
      }),
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/auth/me',
      operationId: 'getCurrentUser',
      summary: 'The user the bearer token identifies',
      description: 'A token whose sign-in session has ended (sign-out, refresh-token reuse) is a 401.',
      tag: TAG,
      auth: 'user',
      responses: { 200: { description: 'The current user.', schema: UserEnvelope } },
      handle: async ({ caller }) => ({
        status: 200,
        body: await deps.getCurrentUser.execute({ principal: signInOf(caller) }),
      }),
    }),
    defineRoute({
      method: 'POST',
      path: '/v1/auth/sync',
      operationId: 'syncUser',
      summary: 'Record the user and make sure they have a project',
      description:
        'Creates "Default Project" (slug `default`) when the user has no project at all, archived ones ' +
        'included; otherwise returns the oldest project and creates nothing. Idempotent and race-safe.',
      tag: TAG,
      auth: 'user',
      body: emptyBody,
      responses: { 200: { description: 'The user and their project.', schema: SyncResponse } },
      errors: ['signup_closed'],
      handle: async ({ caller }) => {
        const { user, project } = await deps.syncUser.execute({ principal: signInOf(caller) });
        return {
          status: 200,
          body: { user, project: { id: project.id, name: project.name, slug: project.slug } },
        };
      },
    }),
  ];
}
