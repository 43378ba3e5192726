import { accessSync, closeSync, constants, openSync, readSync, statSync } from 'node:fs';
import { basename } from 'node:path';

/**
 * Where the extension-capable build came from: `extensionsChromiumPath` (the server's
 * `CHROMIUM_EXTENSIONS_PATH`), the main build when that is a full one (`chromiumPath` /
 * `CHROMIUM_PATH`), or Debian's full `chromium` package.
 */
export type ExtensionsChromiumSource = 'option' | 'env' | 'main' | 'system';

/** An executable that loads unpacked extensions, and where it was found. */
export interface FoundExtensionsChromium {
  readonly path: string;
  readonly source: ExtensionsChromiumSource;
}

/** Where `findExtensionsChromium` looks; the defaults are the real machine. */
export interface FindExtensionsChromiumOptions {
  /** The configured build: a path, or null for none (sessions with an extension are refused). */
  readonly extensionsChromiumPath?: string | null | undefined;
  /** The main build when configured (`chromiumPath` / `CHROMIUM_PATH`): used when it is a full build. */
  readonly chromiumPath?: string | undefined;
  /** The environment to read `CHROMIUM_EXTENSIONS_PATH` and `CHROMIUM_PATH` from (default `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Full Chromium builds tried last (default: Debian's, `FULL_CHROMIUM_PATHS`). */
  readonly fullChromiumPaths?: readonly string[];
}

/**
 * Debian's full browser (package `chromium`; the browser itself: `/usr/bin/chromium` is a shell
 * wrapper that adds flags from /etc/chromium.d).
 */
export const FULL_CHROMIUM_PATHS: readonly string[] = ['/usr/lib/chromium/chromium'];

/** What an operator installs or sets so that sessions can load extensions; part of the refusal. */
export const HOW_TO_LOAD_EXTENSIONS =
  'Install a full Chromium (`apt-get install chromium`: /usr/lib/chromium/chromium) or set ' +
  'CHROMIUM_EXTENSIONS_PATH to a full Chromium build (a headless shell cannot load extensions, and ' +
  'branded Google Chrome 137 and later ignores --load-extension).';

/**
 * The build that runs sessions with an extension (docs/adr/0025): a headless shell (Debian's
 * `chromium-headless-shell`, the npm package's) has no extension system, so such sessions run a full
 * Chromium in new headless mode. In this order:
 * 1. `extensionsChromiumPath`, else `CHROMIUM_EXTENSIONS_PATH` (`off`, like null, means none);
 * 2. the configured main build (`chromiumPath`, else `CHROMIUM_PATH`) unless its name says it is a
 *    headless shell, or it is a script (Debian's `/usr/bin/chromium` wrapper adds its own
 *    `--load-extension` and flags): one build for every session when the operator chose a full one;
 * 3. Debian's full Chromium, `/usr/lib/chromium/chromium`, when installed.
 * Null when there is none. Synchronous (a few `stat`s), so the provider knows at construction whether
 * it loads extensions. A configured path that is not executable is returned as it is: the launch
 * then fails saying so, rather than silently running another build.
 */
export function findExtensionsChromium(
  options: FindExtensionsChromiumOptions = {},
): FoundExtensionsChromium | null {
  const env = options.env ?? process.env;
  if (options.extensionsChromiumPath === null) return null;
  if (options.extensionsChromiumPath) return configured(options.extensionsChromiumPath, 'option');
  const fromEnv = env.CHROMIUM_EXTENSIONS_PATH?.trim();
  if (fromEnv) return configured(fromEnv, 'env');
  const main = options.chromiumPath || env.CHROMIUM_PATH?.trim();
  if (main && !isHeadlessShell(main) && !isScript(main)) return { path: main, source: 'main' };
  const system = (options.fullChromiumPaths ?? FULL_CHROMIUM_PATHS).find(isExecutableFileSync);
  return system ? { path: system, source: 'system' } : null;
}

/** True when the executable's name says it is a headless shell (`chromium-headless-shell`, `headless_shell`). */
export function isHeadlessShell(path: string): boolean {
  return /headless[-_]?shell/i.test(basename(path));
}

/** True for a file starting with `#!` (a wrapper script, not the browser itself). */
function isScript(path: string): boolean {
  try {
    const fd = openSync(path, 'r');
    try {
      const head = Buffer.alloc(2);
      return readSync(fd, head, 0, 2, 0) === 2 && head.toString('latin1') === '#!';
    } finally {
      closeSync(fd);
    }
  } catch {
    return false;
  }
}

function configured(path: string, source: 'option' | 'env'): FoundExtensionsChromium | null {
  return path.toLowerCase() === 'off' ? null : { path, source };
}

function isExecutableFileSync(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
