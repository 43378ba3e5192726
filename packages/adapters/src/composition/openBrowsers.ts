import type { Clock } from '@browserdeck/domain';
import type { Logger } from 'pino';
import type { ComposableBrowserProvider } from '../browsers/ProviderCapabilities.ts';
import type { BrowsersOption } from './BrowserdeckOptions.ts';

/** Local Chromium's defaults: sessions at once, and browsers kept started ahead of demand. */
export const LOCAL_BROWSER_DEFAULTS = { maxSessions: 4, warmBrowsers: 1 } as const;

/**
 * Resolves the `browsers` option, loading only the chosen provider's module (a Browserbase host
 * never looks for Chromium). The composition starts and closes it through its `lifecycle`.
 */
export async function openBrowsers(
  option: BrowsersOption,
  context: { dataDir: string; publicUrl: string; clock: Clock; logger: Logger },
): Promise<ComposableBrowserProvider> {
  if ('provider' in option) return option.provider;
  const { clock, logger } = context;
  if ('browserbase' in option) {
    const { BrowserbaseProvider } = await import('../browsers/browserbase/BrowserbaseProvider.ts');
    return new BrowserbaseProvider({ ...option.browserbase, clock, logger });
  }
  const { LocalChromiumProvider } = await import('../browsers/local-chromium/LocalChromiumProvider.ts');
  return new LocalChromiumProvider({
    ...LOCAL_BROWSER_DEFAULTS,
    ...option.local,
    dataDir: context.dataDir,
    publicUrl: context.publicUrl,
    clock,
    logger,
  });
}
