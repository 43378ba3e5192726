import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** The package whose `dist` is the console, an optional peer of the adapters. */
export const CONSOLE_PACKAGE = '@browserdeck/console';

/**
 * The `dist` folder of the installed `@browserdeck/console` package, or `undefined` when the
 * package is not installed (a host that did not add it). Whether it is built is checked per request.
 */
export function defaultConsoleDir(): string | undefined {
  try {
    return join(dirname(createRequire(import.meta.url).resolve(`${CONSOLE_PACKAGE}/package.json`)), 'dist');
  } catch {
    return undefined;
  }
}
