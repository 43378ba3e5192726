import { writeBrowserbaseError } from './writeBrowserbaseError.ts';

/**
 * What every Browserbase-compatible route shares: a project API key (`X-BB-API-Key`) is required,
 * errors answer in Browserbase's shape, and the route is left out of Browserdeck's OpenAPI document
 * (Browserbase's API reference documents it; docs/browserbase-compatibility.md says what differs).
 */
export const BROWSERBASE_ROUTE = {
  tag: 'Browserbase-compatible',
  auth: 'key',
  undocumented: true,
  writeError: writeBrowserbaseError,
} as const;

/** Paths only the Browserbase-compatible API has. */
const BROWSERBASE_PATHS = /^\/v1\/(sessions|contexts|extensions|functions)(\/|$)/;

/**
 * The Browserbase-compatible API as an error dialect: requests on paths only it has answer their
 * 404s and 405s (and any failure before a route is chosen) in its error shape too.
 */
export const BROWSERBASE_DIALECT = {
  matches: (path: string): boolean => BROWSERBASE_PATHS.test(path),
  writeError: writeBrowserbaseError,
};

/** Whether a request comes from a Browserbase client: a key in `X-BB-API-Key` and no `Authorization`. */
export function isBrowserbaseClient(
  headers: Readonly<Record<string, string | string[] | undefined>>,
): boolean {
  return headers['x-bb-api-key'] !== undefined && headers.authorization === undefined;
}
