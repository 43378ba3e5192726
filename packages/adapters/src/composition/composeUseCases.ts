import {
  type BrowserdeckUseCases,
  type Clock,
  createUseCases,
  type IdentityProvider,
  type IdGenerator,
  normalizeEmail,
  type RunChanges,
  type RunQueue,
  type ScriptRunner,
  type Timers,
} from '@browserdeck/domain';
import type { Logger } from 'pino';
import type { ComposableBrowserProvider } from '../browsers/ProviderCapabilities.ts';
import { ZipExtensionArchiveInspector } from '../extensions/ZipExtensionArchiveInspector.ts';
import { InstrumentedBrowserProvider } from '../observability/InstrumentedBrowserProvider.ts';
import type { MetricsRegistry } from '../observability/MetricsRegistry.ts';
import type { SecretBox } from '../persistence/secrets/SecretBox.ts';
import { NodeApiKeySecrets } from '../shared/NodeApiKeySecrets.ts';
import type { BrowserdeckOptions } from './BrowserdeckOptions.ts';
import type { UseCaseOverrides } from './BrowserdeckOverrides.ts';
import type { BrowserdeckStorage } from './BrowserdeckStorage.ts';
import { withUseCaseOverrides } from './withUseCaseOverrides.ts';

/**
 * Every use case (`createUseCases`) over the composed adapters: the provider measured, log cursors
 * and live-view tokens signed with keys of their own from the secret key, and the host's
 * replacements (`overrides.useCases`) applied once, so in-process callers, the HTTP routes and the
 * background work all get the same ones.
 */
export function composeUseCases(
  deps: {
    storage: BrowserdeckStorage;
    identity: IdentityProvider;
    provider: ComposableBrowserProvider;
    metrics: MetricsRegistry;
    secrets: SecretBox;
    clock: Clock;
    ids: IdGenerator;
    logger: Logger;
    runQueue: RunQueue;
    runChanges: RunChanges;
    scriptRunner: ScriptRunner;
    timers: Timers;
    overrides: UseCaseOverrides | undefined;
  },
  options: Pick<
    BrowserdeckOptions,
    'rateLimits' | 'maxProjectsPerUser' | 'uploadMaxBytes' | 'runs' | 'access'
  >,
): BrowserdeckUseCases {
  const { secrets } = deps;
  const runs = options.runs ?? {};
  const access = options.access ?? {};
  const useCases = createUseCases({
    ...deps.storage,
    ...{ identity: deps.identity, clock: deps.clock, ids: deps.ids, logger: deps.logger },
    ...{ runQueue: deps.runQueue, runChanges: deps.runChanges, scriptRunner: deps.scriptRunner },
    timers: deps.timers,
    provider: new InstrumentedBrowserProvider({ provider: deps.provider, metrics: deps.metrics }),
    cursorSigner: secrets.signer('log-cursor'),
    liveViewSigner: secrets.signer('live-view'),
    apiKeySecrets: new NodeApiKeySecrets(),
    extensionInspector: new ZipExtensionArchiveInspector(),
    rateLimits: options.rateLimits,
    maxProjectsPerUser: options.maxProjectsPerUser,
    runMaxLogBytes: runs.maxLogBytes,
    runMaxQueuedPerOwner: runs.maxQueuedPerOwner,
    runMaxWaitersPerOwner: runs.maxWaitersPerOwner,
    runRetentionDays: runs.retentionDays,
    uploadMaxBytes: options.uploadMaxBytes,
    signupMode: access.signup,
    adminEmails: access.adminEmails?.map(normalizeEmail),
    auditRetentionDays: access.auditRetentionDays,
  });
  return withUseCaseOverrides(useCases, deps.overrides);
}
