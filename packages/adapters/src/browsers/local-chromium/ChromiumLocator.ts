import { type Logger, ProviderError, silentLogger } from '@browserdeck/domain';
import { describeChromiumSource, npmChromiumUnpackMessage } from './chromiumLogMessages.ts';
import {
  type FindChromiumOptions,
  type FoundChromium,
  findChromium,
  HOW_TO_PROVIDE_CHROMIUM,
} from './findChromium.ts';

/**
 * Finds the browser once and remembers it, logging where it came from (and, before it starts, that
 * the npm package's browser is being unpacked: a slow first start). A failed search is not
 * remembered: the operator may install a browser while the service runs, and the next session
 * start looks again.
 */
export class ChromiumLocator {
  private readonly options: FindChromiumOptions;
  private readonly logger: Logger;
  private readonly find: (options: FindChromiumOptions) => Promise<FoundChromium | null>;
  private found: Promise<FoundChromium> | null = null;

  /** `find` is the search itself (tests replace it). */
  constructor(
    options: FindChromiumOptions,
    logger: Logger = silentLogger,
    find: (options: FindChromiumOptions) => Promise<FoundChromium | null> = findChromium,
  ) {
    this.options = options;
    this.logger = logger;
    this.find = find;
  }

  /** True once a search has started (and not failed). */
  get searched(): boolean {
    return this.found !== null;
  }

  /** The browser; `provider_unavailable`, saying how to provide one, when there is none. */
  locate(): Promise<FoundChromium> {
    if (this.found) return this.found;
    const search = this.find({
      ...this.options,
      onUnpack: (unpack) => {
        this.logger.info?.({ chromiumSource: 'npm', ...unpack }, npmChromiumUnpackMessage(unpack));
        this.options.onUnpack?.(unpack);
      },
    }).then((found) => {
      if (!found)
        throw new ProviderError(
          'provider_unavailable',
          `No Chromium browser was found. ${HOW_TO_PROVIDE_CHROMIUM}`,
        );
      this.logger.info?.(
        { chromium: found.path, chromiumSource: found.source },
        `local provider: Chromium from ${describeChromiumSource(found)}`,
      );
      return found;
    });
    search.catch(() => {
      if (this.found === search) this.found = null;
    });
    this.found = search;
    return search;
  }
}
