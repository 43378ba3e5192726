import type { Middleware } from 'koa';
import type { HttpAppDeps } from '../../HttpAppDeps.ts';
import { BROWSERBASE_LIVE_VIEW_ORIGIN } from './consoleContentSecurityPolicy.ts';
import { defaultConsoleDir } from './defaultConsoleDir.ts';
import { serveConsole } from './serveConsole.ts';

/**
 * The console as the app serves it from its settings (`settings.console`): the installed
 * `@browserdeck/console` build by default, another folder with `{ dir }`, none with `false`. With
 * Browserbase sessions the page may also frame Browserbase's live view.
 */
export function consoleMiddleware(
  deps: Pick<HttpAppDeps, 'providerName' | 'settings'>,
): Middleware | undefined {
  const settings = deps.settings?.console;
  if (settings === false) return undefined;
  return serveConsole({
    dir: settings?.dir ?? defaultConsoleDir(),
    frameSources: [
      ...(deps.providerName === 'browserbase' ? [BROWSERBASE_LIVE_VIEW_ORIGIN] : []),
      ...(settings?.frameSources ?? []),
    ],
  });
}
