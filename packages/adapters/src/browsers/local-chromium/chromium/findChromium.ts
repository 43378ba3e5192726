import { ProviderError } from '@browserdeck/domain';
import { findOnPath, isExecutableFile } from '../../../confinement/isolation/findOnPath.ts';
import { chromiumVersion } from './chromiumVersion.ts';
import { extractNpmChromium, type NpmChromiumUnpack } from './extractNpmChromium.ts';
import { type FindChromedriverOptions, findChromedriver } from './findChromedriver.ts';
import { majorVersion } from './majorVersion.ts';

/**
 * Where a Chromium executable came from: configuration, `CHROMIUM_PATH`, Debian's headless shell
 * paired with a chromedriver of its version (`paired`), the npm package or the system's browser.
 */
export type ChromiumSource = 'option' | 'env' | 'paired' | 'system' | 'npm';

/** A Chromium executable and where it was found. */
export interface FoundChromium {
  readonly path: string;
  readonly source: ChromiumSource;
}

/** Where `findChromium` looks. Every field is optional; the defaults are the real machine. */
export interface FindChromiumOptions
  extends Pick<FindChromedriverOptions, 'chromedriverPath' | 'chromedriverPaths'> {
  /** An explicit executable (configuration); wins over everything else. */
  readonly chromiumPath?: string | undefined;
  /** The environment to read `CHROMIUM_PATH` and `PATH` from (default `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * Headless shells used before the npm package when a chromedriver of the same major version is
   * there too (default: Debian's `chromium-headless-shell`, `/usr/lib/chromium/chromium-headless-shell` (the browser itself: `/usr/bin/chromium-headless-shell` is a shell wrapper that does not `exec` it)).
   */
  readonly headlessShellPaths?: readonly string[];
  /** Absolute paths tried, when the npm package is absent, before searching `PATH` (default: the usual Linux locations). */
  readonly systemPaths?: readonly string[];
  /** Executable names searched on `PATH` (default: chromium, chromium-browser, google-chrome…). */
  readonly commandNames?: readonly string[];
  /** Whether to use the optional npm package `@sparticuz/chromium` (default true; false looks for a system browser only). */
  readonly useNpmPackage?: boolean;
  /** Where the npm package's browser is unpacked (default the OS temporary folder). */
  readonly npmCacheDir?: string | undefined;
  /** Told before the npm package's browser is unpacked (a first start: some 190 MB are written). */
  readonly onUnpack?: ((unpack: NpmChromiumUnpack) => void) | undefined;
}

/** Where Debian's `chromium-headless-shell` puts its browser (the package `chromium-driver` pairs with). */
export const HEADLESS_SHELL_PATHS: readonly string[] = ['/usr/lib/chromium/chromium-headless-shell'];

/** Usual locations of a system Chromium or Chrome on Linux. */
export const SYSTEM_CHROMIUM_PATHS: readonly string[] = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/snap/bin/chromium',
  '/opt/google/chrome/chrome',
];

/** Names of a Chromium or Chrome executable looked up on `PATH`. */
export const CHROMIUM_COMMAND_NAMES: readonly string[] = [
  'chromium',
  'chromium-browser',
  'google-chrome',
  'google-chrome-stable',
  'chrome',
];

/** How an operator provides a browser; part of every "no browser" message. */
export const HOW_TO_PROVIDE_CHROMIUM =
  'Set CHROMIUM_PATH to a Chromium or Chrome executable, install one (`apt-get install chromium`), ' +
  'or install the optional npm package (`npm i -w @browserdeck/adapters -O @sparticuz/chromium`).';

/**
 * Finds the browser the local provider runs, in this order (docs/adr/0016-chromium-build.md,
 * docs/adr/0023-webdriver-endpoint-and-paired-chromium.md):
 * 1. `chromiumPath` (configuration), else `CHROMIUM_PATH`: any build the operator chose, such as
 *    Debian's full `/usr/bin/chromium`;
 * 2. Debian's headless shell (`chromium-headless-shell`) when a chromedriver of its major version is
 *    there too (`findChromedriver`: Debian's `chromium-driver`, built from the same source): the
 *    build a session's WebDriver endpoint (`seleniumRemoteUrl`) can attach to;
 * 3. the headless shell inside the npm package `@sparticuz/chromium` (its version is pinned by
 *    package-lock, so every machine runs the same build; no chromedriver matches it);
 * 4. only when that package is not installed (`npm ci --omit=optional`): a system Chromium/Chrome,
 *    at the usual paths, then on `PATH`.
 * Null when there is none. An explicit path that is not an executable file is a configuration
 * mistake and throws `provider_unavailable` instead of silently falling back to another browser.
 */
export async function findChromium(options: FindChromiumOptions = {}): Promise<FoundChromium | null> {
  const env = options.env ?? process.env;
  if (options.chromiumPath) return { path: await requireExecutable(options.chromiumPath), source: 'option' };
  const fromEnv = env.CHROMIUM_PATH?.trim();
  if (fromEnv) return { path: await requireExecutable(fromEnv, 'CHROMIUM_PATH'), source: 'env' };
  const paired = await pairedHeadlessShell(options, env);
  if (paired) return { path: paired, source: 'paired' };
  if (options.useNpmPackage !== false) {
    const path = await extractNpmChromium(options.npmCacheDir, options.onUnpack);
    if (path) return { path, source: 'npm' };
  }
  for (const path of options.systemPaths ?? SYSTEM_CHROMIUM_PATHS) {
    if (await isExecutableFile(path)) return { path, source: 'system' };
  }
  for (const name of options.commandNames ?? CHROMIUM_COMMAND_NAMES) {
    const path = await findOnPath(name, env.PATH);
    if (path) return { path, source: 'system' };
  }
  return null;
}

/** The first headless shell of `headlessShellPaths` with a chromedriver of its major version; null when none. */
async function pairedHeadlessShell(
  options: FindChromiumOptions,
  env: Readonly<Record<string, string | undefined>>,
): Promise<string | null> {
  for (const path of options.headlessShellPaths ?? HEADLESS_SHELL_PATHS) {
    if (!(await isExecutableFile(path))) continue;
    const driver = await findChromedriver({ ...options, env }).catch(() => null);
    if (!driver) return null;
    const [shellVersion, driverVersion] = await Promise.all([chromiumVersion(path), chromiumVersion(driver)]);
    const major = majorVersion(shellVersion);
    if (major !== null && major === majorVersion(driverVersion)) return path;
  }
  return null;
}

/** The first executable file called `name` in the folders of `pathVariable` (a `PATH` value); null when none. */
async function requireExecutable(path: string, name = 'chromiumPath'): Promise<string> {
  if (await isExecutableFile(path)) return path;
  throw new ProviderError(
    'provider_unavailable',
    `${name} (${path}) is not an executable file. ${HOW_TO_PROVIDE_CHROMIUM}`,
  );
}
