import { ProviderError } from '@browserdeck/domain';
import { findOnPath, isExecutableFile } from '../../../confinement/isolation/findOnPath.ts';

/** Where `findChromedriver` looks. Every field is optional; the defaults are the real machine. */
export interface FindChromedriverOptions {
  /** An explicit executable (configuration: `CHROMEDRIVER_PATH`); wins over everything else. */
  readonly chromedriverPath?: string | undefined;
  /** The environment to read `CHROMEDRIVER_PATH` and `PATH` from (default `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Absolute paths tried before searching `PATH` (default: Debian's, `/usr/bin/chromedriver`). */
  readonly chromedriverPaths?: readonly string[];
}

/** Where Debian's `chromium-driver` puts chromedriver. */
export const SYSTEM_CHROMEDRIVER_PATHS: readonly string[] = ['/usr/bin/chromedriver'];

/** How an operator provides a chromedriver that matches the browser; part of every "no chromedriver" message. */
export const HOW_TO_PROVIDE_CHROMEDRIVER =
  'Install Debian’s headless shell and chromedriver, built from the same Chromium (`apt-get install ' +
  'chromium-headless-shell chromium-driver`), or set CHROMEDRIVER_PATH to the chromedriver of the ' +
  'browser CHROMIUM_PATH names (the same major version).';

/**
 * The chromedriver a local session's WebDriver endpoint runs, in this order: `chromedriverPath`
 * (configuration), `CHROMEDRIVER_PATH`, `/usr/bin/chromedriver`, then `chromedriver` on `PATH`.
 * Null when there is none. An explicit path that is not an executable file is a configuration
 * mistake and throws `provider_unavailable` instead of silently falling back to another one.
 */
export async function findChromedriver(options: FindChromedriverOptions = {}): Promise<string | null> {
  const env = options.env ?? process.env;
  const explicit = options.chromedriverPath ?? env.CHROMEDRIVER_PATH?.trim();
  if (explicit) {
    if (await isExecutableFile(explicit)) return explicit;
    throw new ProviderError(
      'provider_unavailable',
      `CHROMEDRIVER_PATH (${explicit}) is not an executable file. ${HOW_TO_PROVIDE_CHROMEDRIVER}`,
    );
  }
  for (const path of options.chromedriverPaths ?? SYSTEM_CHROMEDRIVER_PATHS)
    if (await isExecutableFile(path)) return path;
  return findOnPath('chromedriver', env.PATH);
}
