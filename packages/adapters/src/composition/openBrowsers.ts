import type { Clock } from '@browserdeck/domain';
import type { Logger } from 'pino';
import { NetworkCaptures } from '../browsers/cdp/network/NetworkCaptures.ts';
import { Recordings } from '../browsers/cdp/recording/Recordings.ts';
import type { OrphanSearches } from '../browsers/orphans/OrphanSearches.ts';
import type { ComposableBrowserProvider } from '../browsers/ProviderCapabilities.ts';
import type { BlobStore } from '../browsers/shared-state/BlobStore.ts';
import type { ContextRecords } from '../browsers/shared-state/ContextRecords.ts';
import type { SessionShares } from '../browsers/shared-state/SessionShares.ts';
import type { BrowsersOption, RecordingsOptions } from './BrowserdeckOptions.ts';

/**
 * Local Chromium's defaults: browsers kept started ahead of demand. Sessions at once default to what
 * the host holds (the provider's `resolveSessionCapacity`).
 */
export const LOCAL_BROWSER_DEFAULTS = { warmBrowsers: 1 } as const;

/**
 * Resolves the `browsers` option, loading only the chosen provider's module (a Browserbase or
 * Selenium Grid host never looks for Chromium). The composition starts and closes it through its `lifecycle`.
 */
export async function openBrowsers(
  option: BrowsersOption,
  context: {
    dataDir: string;
    publicUrl: string;
    clock: Clock;
    logger: Logger;
    instanceId: string;
    /** The storage's orphan searches, for Browserbase (absent: kept in memory). */
    orphanSearches?: OrphanSearches | undefined;
    /** The storage's session shares, for local Chromium: the account's share across instances (absent: this instance's). */
    sessionShares?: SessionShares | undefined;
    /** The storage's contexts and blobs, for local Chromium: contexts every instance opens (absent: the data folder's). */
    contextRecords?: ContextRecords | undefined;
    blobs?: BlobStore | undefined;
    /** Whether other instances share the storage: ended sessions' downloads go to `blobs` too. */
    sharedDownloads?: boolean | undefined;
    /** How sessions are recorded, where the storage holds blobs (local, Selenium Grid). */
    recordings?: RecordingsOptions | undefined;
  },
): Promise<ComposableBrowserProvider> {
  if ('provider' in option) return option.provider;
  const { clock, logger } = context;
  // Sessions' network, captured for their HAR where any instance reads it (local, Selenium Grid).
  const networkCaptures = context.blobs
    ? new NetworkCaptures({ blobs: context.blobs, clock, logger })
    : undefined;
  // Sessions' recordings, likewise (SPEC §18).
  const settings = context.recordings ?? {};
  const recordings = context.blobs
    ? new Recordings({
        blobs: context.blobs,
        clock,
        logger,
        byDefault: settings.enabled,
        maxBytes: settings.maxBytesPerSession,
        maxTotalBytes: settings.maxTotalBytes,
        maxBytesPerOwner: settings.maxBytesPerOwner,
        retentionDays: settings.retentionDays,
        maxFps: settings.maxFps,
        ffmpegPath: settings.ffmpegPath,
      })
    : undefined;
  if ('browserbase' in option) {
    const { BrowserbaseProvider } = await import('../browsers/browserbase/BrowserbaseProvider.ts');
    // Searches for browsers left by failed creates live in the storage: a restart carries them on.
    const { orphanSearches } = context;
    return new BrowserbaseProvider({ orphanSearches, ...option.browserbase, clock, logger });
  }
  if ('seleniumGrid' in option) {
    const { SeleniumGridProvider } = await import('../browsers/selenium-grid/SeleniumGridProvider.ts');
    return new SeleniumGridProvider({
      ...option.seleniumGrid,
      instanceId: context.instanceId,
      publicUrl: context.publicUrl,
      networkCaptures,
      recordings,
      clock,
      logger,
    });
  }
  const { LocalChromiumProvider } = await import('../browsers/local-chromium/LocalChromiumProvider.ts');
  return new LocalChromiumProvider({
    ...LOCAL_BROWSER_DEFAULTS,
    ...option.local,
    sessionShares: option.local.sessionShares ?? context.sessionShares,
    contextRecords: option.local.contextRecords ?? context.contextRecords,
    blobs: option.local.blobs ?? context.blobs,
    downloadBlobs: option.local.downloadBlobs ?? (context.sharedDownloads ? context.blobs : undefined),
    networkCaptures: option.local.networkCaptures ?? networkCaptures,
    recordings: option.local.recordings ?? recordings,
    instanceId: context.instanceId,
    dataDir: context.dataDir,
    publicUrl: context.publicUrl,
    clock,
    logger,
  });
}
