import { type ApiKeyCaller, AuthError, type Caller, NotFoundError } from '@browserdeck/domain';

/**
 * The project API key behind a Browserbase-compatible request: that API acts for one project, the
 * key's (http-api.md §13). A user's access token is refused with 401, as Browserbase refuses a
 * request without a valid `X-BB-API-Key`.
 */
export function requireApiKey(caller: Caller): ApiKeyCaller {
  if (caller.kind !== 'apiKey') {
    throw new AuthError(
      'unauthorized',
      'The Browserbase-compatible API takes a project API key: send it as X-BB-API-Key: bdk_….',
    );
  }
  return caller;
}

/**
 * The key's project id, checking a `projectId` the client named: another project is a 404 here (the
 * key cannot see it), as Browserbase answers for a project that is not the key's.
 */
export function keyProject(caller: Caller, named?: string | undefined): string {
  const key = requireApiKey(caller);
  if (named !== undefined && named !== key.projectId) throw new NotFoundError('Project');
  return key.projectId;
}
