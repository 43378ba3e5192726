export { BrowserConfinement } from '../../confinement/isolation/BrowserConfinement.ts';
export type { IsolationLevel, IsolationSetting } from '../../confinement/isolation/IsolationLevel.ts';
export {
  type HostReadings,
  type HostResources,
  hostResourcesOf,
  readCgroupLimits,
  readHostResources,
} from '../../confinement/limits/hostResources.ts';
export {
  RESOURCE_LIMIT_BOUNDS,
  type ResourceLimitSettings,
  type ResourceLimits,
  resolveResourceLimits,
} from '../../confinement/limits/ResourceLimits.ts';
export { ALLOWED_CDP_DOMAINS, checkCdpCommand, type PolicyDecision } from '../cdp/cdpCommandPolicy.ts';
export { BLOCKED_URL_PATTERNS, RECORDED_CDP_EVENTS } from '../cdp/logs/SessionLogRecorder.ts';
export type { ConnectRefusal } from '../cdp/serveConnectUpgrade.ts';
export { checkUpstreamProxies } from '../egress/checkUpstreamProxies.ts';
export { EgressPolicy, type EgressPolicyOptions, type EgressVerdict } from '../egress/EgressPolicy.ts';
export {
  EgressProxy,
  type EgressProxyOptions,
  type EgressRefusal,
  type EgressRefusalListener,
  PROXY_FAILED_METHOD,
  type UpstreamFailure,
  type UpstreamFailureListener,
} from '../egress/EgressProxy.ts';
export { EGRESS_RANGES, type EgressRange, type EgressRangeKind } from '../egress/egressRanges.ts';
export type { EgressLookup } from '../egress/resolveDestination.ts';
export type { BlobStore } from '../shared-state/BlobStore.ts';
export {
  type ContextHolder,
  type ContextRecord,
  type ContextRecords,
  type ContextSave,
  isHeld,
} from '../shared-state/ContextRecords.ts';
export { InMemoryBlobStore } from '../shared-state/InMemoryBlobStore.ts';
export { InMemoryContextRecords } from '../shared-state/InMemoryContextRecords.ts';
export { InMemorySessionShares } from '../shared-state/InMemorySessionShares.ts';
export {
  SESSION_SHARE_STALE_AFTER_MS,
  type SessionShare,
  type SessionShareAnswer,
  type SessionShares,
  shareCounts,
} from '../shared-state/SessionShares.ts';
export { extractNpmChromium, type NpmChromiumUnpack } from './chromium/extractNpmChromium.ts';
export {
  type FindChromedriverOptions,
  findChromedriver,
  HOW_TO_PROVIDE_CHROMEDRIVER,
  SYSTEM_CHROMEDRIVER_PATHS,
} from './chromium/findChromedriver.ts';
export {
  CHROMIUM_COMMAND_NAMES,
  type ChromiumSource,
  type FindChromiumOptions,
  type FoundChromium,
  findChromium,
  HOW_TO_PROVIDE_CHROMIUM,
  SYSTEM_CHROMIUM_PATHS,
} from './chromium/findChromium.ts';
export { buildConnectUrl, connectPath } from './connect/connectPath.ts';
export { LocalChromiumProvider } from './LocalChromiumProvider.ts';
export type { LocalChromiumProviderOptions } from './LocalChromiumProviderOptions.ts';
export { CONTEXT_ID_PATTERN, contextProfileDir } from './profiles/contextProfileDir.ts';
export { TEMP_PROFILE_PREFIX } from './profiles/TemporaryProfiles.ts';
export {
  describeSessionCapacity,
  resolveSessionCapacity,
  SESSION_CAPACITY_PLANNING,
  type SessionCapacity,
} from './session/SessionCapacity.ts';
