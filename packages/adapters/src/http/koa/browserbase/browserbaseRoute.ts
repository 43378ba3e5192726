/**
 * What every Browserbase-compatible route shares: a project API key (`X-BB-API-Key`) is required,
 * errors answer in Browserbase's shape, and the route is left out of Browserdeck's OpenAPI document
 * (Browserbase's API reference documents it; docs/browserbase-compatibility.md says what differs).
 */
export const BROWSERBASE_ROUTE = {
  tag: 'Browserbase-compatible',
  auth: true,
  undocumented: true,
  errorFormat: 'browserbase',
} as const;

/** Whether a request comes from a Browserbase client: a key in `X-BB-API-Key` and no `Authorization`. */
export function isBrowserbaseClient(
  headers: Readonly<Record<string, string | string[] | undefined>>,
): boolean {
  return headers['x-bb-api-key'] !== undefined && headers.authorization === undefined;
}
