/** The alias the `{provider}` path segment always accepts for the configured provider (http-api.md §5). */
export const PROVIDER_ALIAS = 'cloudbrowser';

/** The path of a project's session and agent routes; `{provider}` is checked through `pathValues`. */
export const PROVIDER_PROJECT_PATH = '/v1/{provider}/projects/{project_id}';

/**
 * The values the `{provider}` segment may take: the configured provider's name and the alias. Any
 * other segment is answered like an unknown route (404 `not_found`), not as a bad request.
 */
export function providerPathValues(providerName: string): { provider: readonly string[] } {
  return { provider: [...new Set([providerName, PROVIDER_ALIAS])] };
}

/** The provider faults (§2) a route that calls the provider may answer, besides its rate limit. */
export const PROVIDER_FAULTS = ['provider_error', 'provider_unavailable', 'provider_timeout'] as const;

/** What a route that calls the provider may answer of it: its rate limit and its faults. */
export const PROVIDER_CALL_ERRORS = ['provider_rate_limited', ...PROVIDER_FAULTS] as const;
