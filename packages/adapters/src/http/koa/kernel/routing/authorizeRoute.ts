import { AuthError, type Caller, ForbiddenForApiKeyError } from '@browserdeck/domain';
import type { RouteAuth } from './RouteDefinition.ts';

/**
 * Holds an authenticated caller to what its route declares (`RouteAuth`): a project API key on a
 * `user` route is 403 `forbidden_for_api_key` (http-api.md §12), a user's access token on a `key`
 * route is 401 `unauthorized` (the Browserbase-compatible API takes a key only, as Browserbase does).
 */
export function authorizeRoute(caller: Caller, auth: Exclude<RouteAuth, 'none'>): Caller {
  if (auth === 'user' && caller.kind === 'apiKey') {
    throw new ForbiddenForApiKeyError(
      'This endpoint needs a signed-in user’s access token, not a project API key.',
    );
  }
  if (auth === 'key' && caller.kind !== 'apiKey') {
    throw new AuthError(
      'unauthorized',
      'This endpoint takes a project API key: send it as X-BB-API-Key: bdk_….',
    );
  }
  return caller;
}
