import { type AnyRoute, defineRoute } from '../../kernel/routing/RouteDefinition.ts';
import { projectIdParams } from '../shared/commonSchemas.ts';
import type { UseCasesOf } from '../shared/UseCasesOf.ts';
import { ApiKeyListSchema, apiKeyParams, CreateApiKeyBody, CreatedApiKeySchema } from './apiKeySchemas.ts';
import { presentApiKey } from './presentApiKey.ts';

/** The use cases behind `/v1/projects/{project_id}/api-keys`. */
export type ApiKeyRouteDeps = UseCasesOf<'apiKeys', 'create' | 'list' | 'revoke'>;

/** These routes' OpenAPI tag and what it groups. */
export const API_KEYS_TAG = {
  name: 'API keys',
  description:
    'Long-lived, revocable project API keys for machine clients, each acting as `developer` or the narrower `viewer`. Project admins, with an access token, manage them.',
};
const TAG = API_KEYS_TAG.name;
const BASE = '/v1/projects/{project_id}/api-keys';
const USER_ONLY = 'Needs a project admin’s access token: a project API key cannot manage keys (403).';

/**
 * `/v1/projects/{project_id}/api-keys`: the project's API keys for machine clients (http-api.md §12).
 * Project admins, signed in, manage them.
 */
export function apiKeyRoutes(deps: ApiKeyRouteDeps): AnyRoute[] {
  const scope = { tag: TAG, auth: 'user' as const, errors: ['not_found'] as const };
  return [
    defineRoute({
      ...scope,
      method: 'POST',
      path: BASE,
      operationId: 'createApiKey',
      role: 'admin',
      summary: 'Create an API key',
      description: `The answer holds the key itself, which is shown this once and never again. ${USER_ONLY}`,
      params: projectIdParams,
      body: CreateApiKeyBody,
      responses: { 201: { description: 'The new key with its secret.', schema: CreatedApiKeySchema } },
      handle: async ({ caller, params, body }) => {
        const { apiKey, key } = await deps.create.execute({
          caller,
          projectId: params.project_id,
          name: body.name,
          expiresAt: body.expiresAt ? new Date(body.expiresAt) : null,
          role: body.role,
        });
        const { id, name, role, prefix, ...times } = presentApiKey(apiKey);
        return { status: 201, body: { id, name, role, prefix, key, ...times } };
      },
    }),
    defineRoute({
      ...scope,
      method: 'GET',
      path: BASE,
      operationId: 'listApiKeys',
      role: 'admin',
      summary: 'List API keys, newest first',
      description: `The keys that are not revoked, without their secrets. ${USER_ONLY}`,
      params: projectIdParams,
      responses: { 200: { description: 'The keys.', schema: ApiKeyListSchema } },
      handle: async ({ caller, params }) => {
        const keys = await deps.list.execute({ caller, projectId: params.project_id });
        return { status: 200, body: keys.map(presentApiKey) };
      },
    }),
    defineRoute({
      ...scope,
      method: 'DELETE',
      path: `${BASE}/{key_id}`,
      operationId: 'revokeApiKey',
      role: 'admin',
      summary: 'Revoke an API key',
      description:
        'From the next request on, on every instance, the key is refused (401). Idempotent: revoking a ' +
        `revoked key answers 204 again. ${USER_ONLY}`,
      params: apiKeyParams,
      responses: { 204: { description: 'Revoked; no body.' } },
      handle: async ({ caller, params }) => {
        await deps.revoke.execute({ caller, projectId: params.project_id, keyId: params.key_id });
        return { status: 204 };
      },
    }),
  ];
}
