export { ALLOWED_CDP_DOMAINS, checkCdpCommand, type PolicyDecision } from './cdpCommandPolicy.ts';
export { buildConnectUrl, connectPath } from './connectPath.ts';
export { CONTEXT_ID_PATTERN, contextProfileDir } from './contextProfileDir.ts';
export { EgressPolicy, type EgressPolicyOptions, type EgressVerdict } from './egress/EgressPolicy.ts';
export {
  EgressProxy,
  type EgressProxyOptions,
  type EgressRefusal,
  type EgressRefusalListener,
} from './egress/EgressProxy.ts';
export { EGRESS_RANGES, type EgressRange, type EgressRangeKind } from './egress/egressRanges.ts';
export type { EgressLookup } from './egress/resolveDestination.ts';
export { extractNpmChromium, type NpmChromiumUnpack } from './extractNpmChromium.ts';
export {
  CHROMIUM_COMMAND_NAMES,
  type ChromiumSource,
  type FindChromiumOptions,
  type FoundChromium,
  findChromium,
  HOW_TO_PROVIDE_CHROMIUM,
  SYSTEM_CHROMIUM_PATHS,
} from './findChromium.ts';
export {
  BrowserConfinement,
  type IsolationLevel,
  type IsolationSetting,
} from './isolation/BrowserConfinement.ts';
export { LocalChromiumProvider } from './LocalChromiumProvider.ts';
export type { LocalChromiumProviderOptions } from './LocalChromiumProviderOptions.ts';
export {
  RESOURCE_LIMIT_BOUNDS,
  type ResourceLimitSettings,
  type ResourceLimits,
  resolveResourceLimits,
} from './limits/ResourceLimits.ts';
export { BLOCKED_URL_PATTERNS, RECORDED_CDP_EVENTS } from './SessionLogRecorder.ts';
export type { ConnectRefusal } from './serveConnectUpgrade.ts';
