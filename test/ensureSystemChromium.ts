import { access, constants } from 'node:fs/promises';
import { aptGetInstall } from './aptGetInstall.ts';

/** Debian's full Chromium, which `npm run test:browsers:system` runs the browser tests on. */
export const SYSTEM_CHROMIUM = '/usr/bin/chromium';

/**
 * The browser tests run a second time on Debian's full Chromium (`CHROMIUM_PATH=/usr/bin/chromium`,
 * `npm run test:browsers:system`), so neither build can regress (docs/adr/0016-chromium-build.md).
 * When that run asks for it and it is missing, the set-up installs Debian's `chromium` (as root,
 * with apt-get), as it does bubblewrap; where it cannot, the tests fail saying CHROMIUM_PATH is not
 * an executable file. Any other run needs nothing: the npm package's headless shell is the default.
 */
export async function ensureSystemChromium(
  env: Readonly<Record<string, string | undefined>> = process.env,
  log: (line: string) => void = console.log,
): Promise<void> {
  if (env.CHROMIUM_PATH?.trim() !== SYSTEM_CHROMIUM || (await isExecutable(SYSTEM_CHROMIUM))) return;
  await aptGetInstall(['chromium'], 'the browser tests on the full Chromium', log);
}

async function isExecutable(path: string): Promise<boolean> {
  return access(path, constants.X_OK).then(
    () => true,
    () => false,
  );
}
