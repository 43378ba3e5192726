/**
 * Where the console and the API live, from the URL of the console's own script: the built entry is
 * `<prefix>/console/assets/index-….js` and this module is `<prefix>/console/src/consoleBase.ts` under
 * the dev server, so one level up is the console's root whatever prefix a host mounts Browserdeck
 * under, and two levels up is where `/v1/…` starts (http-api.md: behind a mount prefix every path is
 * under it).
 */
export interface ConsoleBase {
  /** Path of the console's root, ending in `/` (e.g. `/console/`, `/browserdeck/console/`). */
  consolePath: string;
  /** Path the API's `/v1/…` paths are appended to, without a trailing slash (`''` at the root). */
  apiPrefix: string;
}

/** The bases for a module served at `moduleUrl` one folder below the console's root. */
export function consoleBaseOf(moduleUrl: string): ConsoleBase {
  const consolePath = new URL('../', moduleUrl).pathname;
  const apiPrefix = new URL('../', new URL(consolePath, moduleUrl)).pathname.replace(/\/$/, '');
  return { consolePath, apiPrefix };
}

/** This console's bases. */
export const consoleBase: ConsoleBase = consoleBaseOf(import.meta.url);
