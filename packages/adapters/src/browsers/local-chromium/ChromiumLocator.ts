import { ProviderError } from '@browserdeck/domain';
import {
  type FindChromiumOptions,
  type FoundChromium,
  findChromium,
  HOW_TO_PROVIDE_CHROMIUM,
} from './findChromium.ts';

/**
 * Finds the browser once and remembers it. A failed search is not remembered: the operator may
 * install a browser while the service runs, and the next session start looks again.
 */
export class ChromiumLocator {
  private readonly options: FindChromiumOptions;
  private found: Promise<FoundChromium> | null = null;

  constructor(options: FindChromiumOptions) {
    this.options = options;
  }

  /** True once a search has started (and not failed). */
  get searched(): boolean {
    return this.found !== null;
  }

  /** The browser; `provider_unavailable`, saying how to provide one, when there is none. */
  locate(): Promise<FoundChromium> {
    if (this.found) return this.found;
    const search = findChromium(this.options).then((found) => {
      if (found) return found;
      throw new ProviderError(
        'provider_unavailable',
        `No Chromium browser was found. ${HOW_TO_PROVIDE_CHROMIUM}`,
      );
    });
    search.catch(() => {
      if (this.found === search) this.found = null;
    });
    this.found = search;
    return search;
  }
}
