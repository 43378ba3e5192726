import type { BrowserContextStore, Logger } from '@browserdeck/domain';
import { InMemorySessionShares } from '../shared-state/InMemorySessionShares.ts';
import { LocalConnect } from './connect/LocalConnect.ts';
import { RetainedDownloads } from './files/RetainedDownloads.ts';
import { LOCAL_DEFAULTS, type SizedLocalOptions } from './LocalChromiumProviderOptions.ts';
import { BrowserSupply } from './launch/BrowserSupply.ts';
import { ContextLocks } from './profiles/ContextLocks.ts';
import { ContextProfileCache } from './profiles/ContextProfileCache.ts';
import { LocalContextStore } from './profiles/LocalContextStore.ts';
import { CONTEXT_MAX_BYTES_DEFAULT, SharedContextProfiles } from './profiles/SharedContextProfiles.ts';
import { SharedContextStore } from './profiles/SharedContextStore.ts';
import { ClusterShare } from './session/ClusterShare.ts';
import { extensionsFeature } from './session/features/extensionsFeature.ts';
import { filesFeature } from './session/features/filesFeature.ts';
import { networkCaptureFeature } from './session/features/networkCaptureFeature.ts';
import { recordingFeature } from './session/features/recordingFeature.ts';
import { upstreamProxiesFeature } from './session/features/upstreamProxiesFeature.ts';
import { webdriverFeature } from './session/features/webdriverFeature.ts';
import { SessionAdmission } from './session/SessionAdmission.ts';
import type { SessionFeature } from './session/SessionFeature.ts';
import { SessionProxyBytes } from './session/SessionProxyBytes.ts';
import { SessionRegistry } from './session/SessionRegistry.ts';
import { LocalWebDriver } from './webdriver/LocalWebDriver.ts';

/** The parts the local provider is made of, wired to each other (`localProviderParts`). */
export interface LocalProviderParts {
  /** Running and ended sessions, and the connect endpoint's lookup. */
  readonly registry: SessionRegistry;
  /** Slots per account and in all, for creates under way and sessions. */
  readonly admission: SessionAdmission;
  /** The account's share across the instances on one database, claimed once `admission` lets a create through. */
  readonly share: ClusterShare;
  /** Warm and launched browsers, the egress proxy, the confinement. */
  readonly browsers: BrowserSupply;
  /** Sessions' connect endpoint (an upgrade route of the HTTP adapter's table) and in-process CDP. */
  readonly connect: LocalConnect;
  /**
   * The projects' contexts (http-api.md §7): shared by every instance on the database when the
   * options give its records and blobs, else the profile folders under `<dataDir>/contexts`.
   */
  readonly contexts: BrowserContextStore;
  readonly contextLocks: ContextLocks;
  /** The shared contexts' profiles as sessions open and save them; null with contexts in the data folder. */
  readonly sharedContexts: SharedContextProfiles | null;
  /** Ended sessions' downloads, kept for `downloadsRetentionSec` under `<dataDir>/downloads`. */
  readonly retained: RetainedDownloads;
  /** Sessions' WebDriver side: whether a chromedriver matches the browser, and their chromedrivers. */
  readonly webdriver: LocalWebDriver;
  /** Bytes through each session's upstream proxies, metered at the egress proxy. */
  readonly proxyBytes: SessionProxyBytes;
  /** What sessions add to the core, in the order they are prepared (`SessionFeature`). */
  readonly features: readonly SessionFeature[];
}

/** Builds the local provider's parts from its options; nothing starts until the provider's `start`. */
export function localProviderParts(
  options: SizedLocalOptions,
  logger: Logger,
  instanceId: string,
): LocalProviderParts {
  const contextLocks = new ContextLocks();
  const retained = new RetainedDownloads({
    dataDir: options.dataDir,
    retentionSec: options.downloadsRetentionSec,
    maxBytes: options.downloadsMaxBytes,
    maxBytesPerOwner: options.downloadsMaxBytesPerOwner,
    clock: options.clock,
    logger,
    // Shared with the other instances: served by any of them once the session has ended.
    blobs: options.downloadBlobs,
  });
  const maxPerProject = options.maxContextsPerProject ?? LOCAL_DEFAULTS.maxContextsPerProject;
  const { contextRecords: records, blobs } = options;
  if (!records !== !blobs) throw new Error('contextRecords and blobs go together: give both, or neither');
  const cache =
    blobs &&
    new ContextProfileCache({
      ...{ dataDir: options.dataDir, instanceId, blobs, logger },
      maxBytes: options.contextMaxBytes ?? CONTEXT_MAX_BYTES_DEFAULT,
    });
  const store =
    records && blobs && cache
      ? new SharedContextStore({ records, blobs, cache, clock: options.clock, maxPerProject })
      : null;
  const sharedContexts =
    records && blobs && cache && store
      ? new SharedContextProfiles({
          ...{ records, store, blobs, cache, locks: contextLocks, dataDir: options.dataDir, instanceId },
          ...{ clock: options.clock, logger, maxBytes: options.contextMaxBytes ?? CONTEXT_MAX_BYTES_DEFAULT },
        })
      : null;
  const contexts: BrowserContextStore =
    store ?? new LocalContextStore({ dataDir: options.dataDir, locks: contextLocks, maxPerProject });
  const registry = new SessionRegistry({
    maxSessions: options.endedSessionRetention ?? LOCAL_DEFAULTS.endedSessionRetention,
    maxWithLogs: options.endedLogRetention ?? LOCAL_DEFAULTS.endedLogRetention,
    maxLogBytes: options.endedLogMaxBytes ?? LOCAL_DEFAULTS.endedLogMaxBytes,
  });
  // The warm pool fills the slots neither sessions nor creates under way hold.
  const browsers: BrowserSupply = new BrowserSupply(
    options,
    logger,
    () => options.maxSessions - registry.size - admission.reserved,
  );
  const admission = new SessionAdmission({
    ...{ maxSessions: options.maxSessions, maxSessionsPerOwner: options.maxSessionsPerOwner },
    registry,
    warm: () => browsers.warm,
    clock: options.clock,
  });
  const share = new ClusterShare({
    shares: options.sessionShares ?? new InMemorySessionShares(),
    maxPerOwner: options.maxSessionsPerOwner,
    ...{ instanceId, clock: options.clock, logger },
  });
  const connect = new LocalConnect({
    registry,
    publicUrl: options.publicUrl,
    maxConnectionsPerSession: options.maxConnectionsPerSession ?? LOCAL_DEFAULTS.maxConnectionsPerSession,
  });
  const { extensionsBuild } = browsers;
  const webdriver = new LocalWebDriver({
    browserBuild: () => browsers.browserBuild(),
    chromedriver: {
      chromedriverPath: options.chromedriverPath,
      env: options.chromiumSearch?.env,
      chromedriverPaths: options.chromiumSearch?.chromedriverPaths,
    },
    logger,
    lookup: (id) => registry.connectLookup(id),
  });
  const proxyBytes = new SessionProxyBytes(() => registry.all());
  const features = [
    extensionsFeature(extensionsBuild),
    upstreamProxiesFeature({ egress: browsers.egress, onEnded: (ended) => proxyBytes.keepFinal(ended) }),
    filesFeature(retained),
    webdriverFeature({ webdriver, browsers, extensionsBuild }),
    ...(options.networkCaptures ? [networkCaptureFeature(options.networkCaptures)] : []),
    ...(options.recordings ? [recordingFeature(options.recordings)] : []),
  ];
  return {
    registry,
    admission,
    share,
    browsers,
    connect,
    contexts,
    contextLocks,
    sharedContexts,
    retained,
    webdriver,
    proxyBytes,
    features,
  };
}
