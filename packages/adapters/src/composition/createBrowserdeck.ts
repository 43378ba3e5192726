import { resolve } from 'node:path';
import { RUN_CONCURRENCY_DEFAULT, runMaxActivePerOwnerFor, SystemClock } from '@browserdeck/domain';
import { pino } from 'pino';
import type { HttpSettings } from '../http/koa/HttpAppDeps.ts';
import { DEFAULT_PUBLIC_URL } from '../http/koa/kernel/proxy/PublicUrls.ts';
import { MetricsRegistry } from '../observability/MetricsRegistry.ts';
import { loadOrCreateSecretKey } from '../persistence/secrets/loadOrCreateSecretKey.ts';
import { SecretBox } from '../persistence/secrets/SecretBox.ts';
import { SystemTimers } from '../runs/SystemTimers.ts';
import { securePrivateDir } from '../shared/securePrivateDir.ts';
import { UuidV7Generator } from '../shared/UuidV7Generator.ts';
import type { Browserdeck } from './Browserdeck.ts';
import type { BrowserdeckOptions } from './BrowserdeckOptions.ts';
import { composeHttp } from './composeHttp.ts';
import { composeUseCases } from './composeUseCases.ts';
import { instanceHoldings } from './instanceHoldings.ts';
import { Lifecycle } from './lifecycle/Lifecycle.ts';
import { logPrivateDataDir } from './logPrivateDataDir.ts';
import { OwnUpgrades } from './OwnUpgrades.ts';
import { openBrowsers } from './openBrowsers.ts';
import { openIdentity } from './openIdentity.ts';
import { openInstanceId } from './openInstanceId.ts';
import { openInstances } from './openInstances.ts';
import { openLiveViewHub } from './openLiveViewHub.ts';
import { openMembership } from './openMembership.ts';
import { openProviderBackground } from './openProviderBackground.ts';
import { openProviderLifecycle } from './openProviderLifecycle.ts';
import { openProxyBytes } from './openProxyBytes.ts';
import { openRunChanges } from './openRunChanges.ts';
import { openAuditPruner, openRunPruner } from './openRunPruner.ts';
import { openRunQueue } from './openRunQueue.ts';
import { openRunWorker } from './openRunWorker.ts';
import { openScriptRunner } from './openScriptRunner.ts';
import { openSessionReconciler } from './openSessionReconciler.ts';
import { openStorage } from './openStorage.ts';
import { registerRunMetrics } from './runMetrics.ts';

/**
 * Composes Browserdeck from the adapters a host chose, once, for every host: the standalone server,
 * an app that embeds it, and the HTTP tests. Defaults fit an embedding app: SQLite in the data
 * folder, local identity, local Chromium. Adapter modules a host does not choose are never loaded.
 * Returns the use cases by feature, the HTTP app with its upgrade handler, and `start`/`close` for
 * the background work and the resources it opened (docs/adr/0009-one-composition.md). `overrides`
 * replace parts (use cases, the HTTP app's database hooks and settings) where they are built.
 */
export async function createBrowserdeck(options: BrowserdeckOptions = {}): Promise<Browserdeck> {
  return (await composeBrowserdeck(options)).browserdeck;
}

/**
 * `createBrowserdeck`, with the lifecycle that runs its parts: the list of what it opened, each
 * with the phase it stops in (`PART_PHASES`). `start()` starts them in that order, `close()` stops
 * them phase by phase; what fails while composing closes what was opened before it.
 */
export async function composeBrowserdeck(
  options: BrowserdeckOptions = {},
): Promise<{ browserdeck: Browserdeck; lifecycle: Lifecycle }> {
  const dataDir = resolve(options.dataDir ?? './data');
  const logger = options.logger ?? pino({ base: { service: 'browserdeck' } });
  const clock = options.clock ?? new SystemClock();
  const ids = options.ids ?? new UuidV7Generator();
  const metrics = options.metrics ?? new MetricsRegistry();
  const overrides = options.overrides ?? {};
  const browsersOption = options.browsers ?? { local: {} };
  // Once, before anything is written there; created now only for local browsers' profiles (keys and
  // the SQLite file create it 0700 themselves when they are the first to write).
  logPrivateDataDir(logger, await securePrivateDir(dataDir, { create: 'local' in browsersOption }));
  const secretKey = await loadOrCreateSecretKey({ dataDir, secretKey: options.secretKey });
  logger.info(
    { source: secretKey.source, file: secretKey.file },
    'secrets at rest are sealed with AES-256-GCM',
  );
  const secrets = new SecretBox(secretKey.key);
  const database = options.database ?? { url: `sqlite:${resolve(dataDir, 'browserdeck.sqlite')}` };
  const lifecycle = new Lifecycle();
  try {
    const { storage, postgres } = lifecycle.add(await openStorage(database, { secrets, clock }));
    const runOptions = options.runs ?? {};
    const { queue: runQueue } = lifecycle.add(
      await openRunQueue(postgres, {
        ...{ runs: storage.runs, logger },
        maxActivePerOwner:
          runOptions.maxActivePerOwner ??
          runMaxActivePerOwnerFor(runOptions.concurrency ?? RUN_CONCURRENCY_DEFAULT),
      }),
    );
    if (!postgres && !(runOptions.worker ?? true)) {
      logger.warn('runs.worker is false with an in-process run queue: runs wait until a worker starts here');
    }
    const identityOption = options.identity ?? { local: {} };
    const identity = await openIdentity(identityOption, { storage, dataDir, clock, ids, logger });
    const publicUrl = (options.publicUrl ?? DEFAULT_PUBLIC_URL).replace(/\/+$/, '');
    const resolvedId = lifecycle.add(
      await openInstanceId({
        dataDir,
        configured:
          options.instance?.id ?? ('local' in browsersOption ? browsersOption.local.instanceId : undefined),
        stable: storage.instances !== undefined || !('provider' in browsersOption),
      }),
    );
    const provider = await openBrowsers(browsersOption, {
      ...{ dataDir, publicUrl, clock, logger, orphanSearches: storage.orphanSearches },
      sessionShares: storage.sessionShares,
      ...{ contextRecords: storage.contexts, blobs: storage.blobs, sharedDownloads: postgres !== undefined },
      instanceId: resolvedId.id,
      recordings: options.recordings,
    });
    // A provider a host built may hold its browsers under an id of its own: that id is the instance's.
    const instanceId = provider.capabilities.placement?.instanceId ?? resolvedId.id;
    const intervalSec = options.proxyBytesFlushSec ?? 5;
    lifecycle.add(openProxyBytes(provider, { sessions: storage.sessions, logger, intervalSec }));
    lifecycle.add(openProviderBackground(provider));
    // Bound to the reconciler's last pass once it exists (below).
    let storeEndedSessions = async (): Promise<void> => {};
    lifecycle.add(await openProviderLifecycle(provider, () => storeEndedSessions()));
    const { hub } = lifecycle.add(openLiveViewHub(provider, overrides.liveView, logger));
    // Several instances on one database: calls about the sessions another one holds are carried to it.
    const instances = storage.instances
      ? lifecycle.add(
          openInstances({
            ...{ registry: storage.instances, instanceId, secrets, provider, logger, hub },
            holdings: instanceHoldings(storage),
            url: (options.instance?.url ?? publicUrl).replace(/\/+$/, ''),
            reconcileIntervalSec: options.reconcileIntervalSec ?? 15,
          }),
        )
      : undefined;
    const runHooks = registerRunMetrics(metrics, { runs: storage.runs, queue: runQueue });
    // Bound to the HTTP side's upgrade handler once it is built (below).
    const ownUpgrades = new OwnUpgrades(publicUrl);
    const { runner: scriptRunner } = lifecycle.add(
      await openScriptRunner({
        ...{ ownUpgrade: ownUpgrades.serve, browsers: browsersOption, runs: runOptions, dataDir, logger },
        onSpawned: runHooks.spawned,
        given: overrides.scriptRunner,
      }),
    );
    const timers = overrides.timers ?? new SystemTimers();
    const { changes: runChanges } = lifecycle.add(await openRunChanges(postgres, logger));
    const useCases = composeUseCases(
      {
        ...{ storage, identity, provider: instances?.provider ?? provider, metrics, secrets, clock, ids },
        ...{ logger, runQueue, runChanges, scriptRunner, timers, overrides: overrides.useCases },
      },
      options,
    );
    const { countActiveSessions } = storage;
    if (countActiveSessions) {
      metrics.gauge('browserdeck_active_sessions', 'Sessions PENDING or RUNNING, in every project.', () =>
        countActiveSessions(),
      );
    }
    const http = composeHttp(
      {
        ...{ useCases, providerName: provider.name, database: storage.database, logger, metrics },
        ...{ settings: httpSettingsOf(options), publicUrl, liveView: instances ? instances.liveView : hub },
      },
      {
        upgrades: provider.capabilities.upgrades,
        webdriver: provider.capabilities.webdriver,
        instances,
        mountPrefix: new URL(publicUrl).pathname.replace(/\/+$/, ''),
        overrides,
      },
    );
    ownUpgrades.bind(http.handleUpgrade);
    // Before anything is served: sessions a previous run of this instance left active are ended.
    if (instances) lifecycle.add(await openMembership(instances, useCases.sessions.endLostInstance));
    const reconciler = lifecycle.add(
      openSessionReconciler({
        ...{ reconcile: useCases.sessions.reconcile, logger, clock },
        intervalSec: options.reconcileIntervalSec ?? 15,
      }),
    );
    storeEndedSessions = () => reconciler.flush();
    lifecycle.add(openRunPruner({ prune: useCases.runs.prune, logger }));
    lifecycle.add(openAuditPruner({ prune: useCases.operators.pruneAudit, logger }));
    lifecycle.add(
      openRunWorker({
        ...{ useCases, queue: runQueue, timers, provider, runs: runOptions, logger },
        onRunDone: runHooks.runDone,
      }),
    );
    const browserdeck: Browserdeck = {
      ...{ useCases, http, provider, identity, storage, metrics, logger },
      start: () => lifecycle.start(),
      close: () => lifecycle.stop(),
    };
    return { browserdeck, lifecycle };
  } catch (error) {
    await lifecycle
      .stop()
      .catch((closeError: unknown) =>
        logger.warn({ err: closeError }, 'could not close what was opened before the failure'),
      );
    throw error;
  }
}

/** The HTTP settings, with handed-out URLs following a trusted proxy's origin when no `publicUrl` was given. */
function httpSettingsOf(options: BrowserdeckOptions): HttpSettings {
  const publicUrlFromProxy = options.http?.publicUrlFromProxy ?? options.publicUrl === undefined;
  return { ...options.http, publicUrlFromProxy };
}
