import { PROVIDER_PROJECT_PATH } from '../../api/shared/providerScope.ts';
import type { AnyRoute } from '../routing/RouteDefinition.ts';

/** The project routes outside `PROVIDER_PROJECT_PATH` that a key may call: reading its own project. */
const READS_OF_THE_PROJECT = new Set(['GET /v1/projects', 'GET /v1/projects/{project_id}']);

/**
 * Whether a project API key may call a route (http-api.md §12), as the OpenAPI document states it:
 * the work inside a project (every route under `/v1/{provider}/projects/{project_id}`) and reading the
 * project. Everything else that needs a credential needs a user's access token. The domain's
 * `authorizeProject` is what enforces it; the API key authorisation test holds the two together.
 */
export function acceptsApiKey(route: Pick<AnyRoute, 'auth' | 'method' | 'path'>): boolean {
  if (!route.auth) return false;
  return (
    route.path.startsWith(`${PROVIDER_PROJECT_PATH}/`) ||
    READS_OF_THE_PROJECT.has(`${route.method} ${route.path}`)
  );
}
