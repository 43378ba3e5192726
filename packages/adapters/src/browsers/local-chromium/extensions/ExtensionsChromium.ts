import { type Logger, ProviderError, silentLogger, UnsupportedOptionError } from '@browserdeck/domain';
import { isExecutableFile } from '../../../confinement/isolation/findOnPath.ts';
import { chromiumVersion } from '../chromium/chromiumVersion.ts';
import {
  type FindExtensionsChromiumOptions,
  type FoundExtensionsChromium,
  findExtensionsChromium,
  HOW_TO_LOAD_EXTENSIONS,
} from './findExtensionsChromium.ts';

/** The extension-capable build, with what it says it is (`--version`; null when it did not answer). */
export interface LocatedExtensionsChromium extends FoundExtensionsChromium {
  readonly version: string | null;
}

/**
 * The build sessions with an extension run (`findExtensionsChromium`, looked for once, at
 * construction, so `available` is known synchronously). `locate` checks it is executable and asks
 * its version once, logging which build it is.
 */
export class ExtensionsChromium {
  /** The build, or null when this host has none (sessions with an extension are then refused). */
  readonly found: FoundExtensionsChromium | null;
  private readonly logger: Logger;
  private located: Promise<LocatedExtensionsChromium> | null = null;

  constructor(options: FindExtensionsChromiumOptions, logger: Logger = silentLogger) {
    this.found = findExtensionsChromium(options);
    this.logger = logger;
  }

  /** True when sessions may name an extension. */
  get available(): boolean {
    return this.found !== null;
  }

  /**
   * The build and its version: `unsupported_option` (on `extensionId`) saying what to install when
   * there is none, `provider_unavailable` when the configured path is not an executable.
   */
  locate(): Promise<LocatedExtensionsChromium> {
    const { found } = this;
    if (!found) return Promise.reject(ExtensionsChromium.refusal());
    this.located ??= (async () => {
      if (!(await isExecutableFile(found.path)))
        throw new ProviderError(
          'provider_unavailable',
          `The Chromium for sessions with an extension (${found.path}) is not an executable file. ${HOW_TO_LOAD_EXTENSIONS}`,
        );
      const version = await chromiumVersion(found.path);
      this.logger.info?.(
        {
          extensionsChromium: found.path,
          extensionsChromiumSource: found.source,
          extensionsChromiumVersion: version,
        },
        `local provider: sessions with an extension run ${version ?? 'Chromium'} from ${found.path} (cold, never a warm browser)`,
      );
      return { ...found, version };
    })();
    const search = this.located;
    search.catch(() => {
      if (this.located === search) this.located = null;
    });
    return search;
  }

  /** The refusal of a session with an extension on a host without an extension-capable build. */
  static refusal(): UnsupportedOptionError {
    return new UnsupportedOptionError(
      'extensionId',
      `This server's local browsers cannot load extensions (a headless shell has no extension system). ${HOW_TO_LOAD_EXTENSIONS}`,
    );
  }

  /** Said once at start-up: which build sessions with an extension run, or why they are refused. */
  logAtStart(): void {
    if (this.found)
      void this.locate().catch((error: unknown) =>
        this.logger.warn({ err: error }, (error as Error).message),
      );
    else
      this.logger.warn(
        {},
        `local provider: no Chromium that loads extensions, so sessions naming an extensionId are refused. ${HOW_TO_LOAD_EXTENSIONS}`,
      );
  }
}
