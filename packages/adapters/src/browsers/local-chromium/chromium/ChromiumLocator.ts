import { type Logger, ProviderError, silentLogger } from '@browserdeck/domain';
import { chromiumFoundMessage, npmChromiumUnpackMessage } from './chromiumLogMessages.ts';
import { chromiumVersion } from './chromiumVersion.ts';
import {
  type FindChromiumOptions,
  type FoundChromium,
  findChromium,
  HOW_TO_PROVIDE_CHROMIUM,
} from './findChromium.ts';

/** A browser found, with what it says it is (`--version`; null when it did not answer). */
export interface LocatedChromium extends FoundChromium {
  readonly version: string | null;
}

/**
 * Finds the browser once and remembers it, logging which one it is (its `--version`) and where it
 * came from (and, before it starts, that the npm package's browser is being unpacked: a slow first
 * start). A failed search is not
 * remembered: the operator may install a browser while the service runs, and the next session
 * start looks again.
 */
export class ChromiumLocator {
  private readonly options: FindChromiumOptions;
  private readonly logger: Logger;
  private readonly find: (options: FindChromiumOptions) => Promise<FoundChromium | null>;
  private readonly version: (path: string) => Promise<string | null>;
  private found: Promise<LocatedChromium> | null = null;

  /** `find` is the search itself and `version` asks the browser what it is (tests replace them). */
  constructor(
    options: FindChromiumOptions,
    logger: Logger = silentLogger,
    find: (options: FindChromiumOptions) => Promise<FoundChromium | null> = findChromium,
    version: (path: string) => Promise<string | null> = chromiumVersion,
  ) {
    this.options = options;
    this.logger = logger;
    this.find = find;
    this.version = version;
  }

  /** True once a search has started (and not failed). */
  get searched(): boolean {
    return this.found !== null;
  }

  /** The browser and its `--version` line; `provider_unavailable`, saying how to provide one, when there is none. */
  locate(): Promise<LocatedChromium> {
    if (this.found) return this.found;
    const search = this.find({
      ...this.options,
      onUnpack: (unpack) => {
        this.logger.info?.({ chromiumSource: 'npm', ...unpack }, npmChromiumUnpackMessage(unpack));
        this.options.onUnpack?.(unpack);
      },
    }).then(async (found) => {
      if (!found)
        throw new ProviderError(
          'provider_unavailable',
          `No Chromium browser was found. ${HOW_TO_PROVIDE_CHROMIUM}`,
        );
      const version = await this.version(found.path);
      this.logger.info?.(
        { chromium: found.path, chromiumSource: found.source, chromiumVersion: version },
        chromiumFoundMessage(found, version),
      );
      return { ...found, version };
    });
    search.catch(() => {
      if (this.found === search) this.found = null;
    });
    this.found = search;
    return search;
  }
}
