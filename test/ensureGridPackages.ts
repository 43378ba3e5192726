import { access, constants } from 'node:fs/promises';
import { aptGetInstall, succeeds } from './aptGetInstall.ts';

/**
 * What the Selenium Grid and WebDriver tests run on (SPEC §15): Java 17 for the Grid's jar, Debian's
 * headless shell and the chromedriver of the same source (the local provider's paired build, the
 * Grid nodes' browser and driver). When one is missing the set-up installs it (as root, with
 * apt-get), as it does bubblewrap; where it cannot, those tests fail naming what to install.
 */
export async function ensureGridPackages(log: (line: string) => void = console.log): Promise<void> {
  const missing: string[] = [];
  if (!(await isExecutable('/usr/lib/chromium/chromium-headless-shell')))
    missing.push('chromium-headless-shell');
  if (!(await isExecutable('/usr/bin/chromedriver'))) missing.push('chromium-driver');
  if (!(await succeeds('java', ['-version']))) missing.push('openjdk-17-jre-headless');
  if (missing.length > 0) await aptGetInstall(missing, 'the Selenium Grid and WebDriver tests', log);
}

async function isExecutable(path: string): Promise<boolean> {
  return access(path, constants.X_OK).then(
    () => true,
    () => false,
  );
}
