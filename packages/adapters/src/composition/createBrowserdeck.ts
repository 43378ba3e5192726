import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import {
  createUseCases,
  RUN_CONCURRENCY_DEFAULT,
  runMaxActivePerOwnerFor,
  SystemClock,
} from '@browserdeck/domain';
import { pino } from 'pino';
import { ScreencastHub } from '../browsers/live-view/ScreencastHub.ts';
import { ZipExtensionArchiveInspector } from '../extensions/ZipExtensionArchiveInspector.ts';
import { resolveInstanceId } from '../instances/resolveInstanceId.ts';
import { InstrumentedBrowserProvider } from '../observability/InstrumentedBrowserProvider.ts';
import { MetricsRegistry } from '../observability/MetricsRegistry.ts';
import { loadOrCreateSecretKey } from '../persistence/secrets/loadOrCreateSecretKey.ts';
import { SecretBox } from '../persistence/secrets/SecretBox.ts';
import { SystemTimers } from '../runs/SystemTimers.ts';
import { NodeApiKeySecrets } from '../shared/NodeApiKeySecrets.ts';
import { securePrivateDir } from '../shared/securePrivateDir.ts';
import { UuidV7Generator } from '../shared/UuidV7Generator.ts';
import type { Browserdeck } from './Browserdeck.ts';
import type { BrowserdeckOptions } from './BrowserdeckOptions.ts';
import { composeHttp } from './composeHttp.ts';
import { createRunWorker } from './createRunWorker.ts';
import { logPrivateDataDir } from './logPrivateDataDir.ts';
import { OwnUpgrades } from './OwnUpgrades.ts';
import { openBrowsers } from './openBrowsers.ts';
import { openIdentity } from './openIdentity.ts';
import { openInstances } from './openInstances.ts';
import { openRunChanges } from './openRunChanges.ts';
import { openRunQueue } from './openRunQueue.ts';
import { openScriptRunner } from './openScriptRunner.ts';
import { openStorage } from './openStorage.ts';
import { ProxyBytesFlusher } from './ProxyBytesFlusher.ts';
import { RunPruner } from './RunPruner.ts';
import { registerRunMetrics } from './runMetrics.ts';
import { SessionReconciler } from './SessionReconciler.ts';
import { withUseCaseOverrides } from './withUseCaseOverrides.ts';

/**
 * Composes Browserdeck from the adapters a host chose, once, for every host: the standalone server,
 * an app that embeds it, and the HTTP tests. Defaults fit an embedding app: SQLite in the data
 * folder, local identity, local Chromium. Adapter modules a host does not choose are never loaded.
 * Returns the use cases by feature, the HTTP app with its upgrade handler, and `start`/`close` for
 * the background work and the resources it opened (docs/adr/0009-one-composition.md). `overrides`
 * replace parts (use cases, the HTTP app's database hooks and settings) where they are built.
 */
export async function createBrowserdeck(options: BrowserdeckOptions = {}): Promise<Browserdeck> {
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
  const opened = await openStorage(database, { secrets, clock });
  const closers: Array<() => Promise<void>> = [opened.close];
  const closeAll = async () => {
    for (const close of closers.splice(0).reverse()) await close();
  };
  try {
    const { storage } = opened;
    const runOptions = options.runs ?? {};
    const takesRuns = runOptions.worker ?? true;
    const runQueue = await openRunQueue(opened.postgres, {
      runs: storage.runs,
      logger,
      maxActivePerOwner:
        runOptions.maxActivePerOwner ??
        runMaxActivePerOwnerFor(runOptions.concurrency ?? RUN_CONCURRENCY_DEFAULT),
    });
    closers.push(() => runQueue.close());
    if (!opened.postgres && !takesRuns) {
      logger.warn('runs.worker is false with an in-process run queue: runs wait until a worker starts here');
    }
    const identity = await openIdentity(options.identity ?? { local: {} }, {
      storage,
      dataDir,
      clock,
      ids,
      logger,
    });
    const publicUrl = (options.publicUrl ?? 'http://127.0.0.1:3000').replace(/\/+$/, '');
    const configuredId =
      options.instance?.id ?? ('local' in browsersOption ? browsersOption.local.instanceId : undefined);
    // A stable id (kept in the data folder) matters where sessions outlive this process's memory: a
    // database others share or restarts read, or browsers of ours. A host's own provider on
    // in-memory storage (the test app) keeps nothing on disk.
    const resolvedId =
      storage.instances || !('provider' in browsersOption)
        ? await resolveInstanceId({ dataDir, configured: configuredId })
        : { id: configuredId ?? `i-${randomUUID()}`, slot: undefined };
    const { slot } = resolvedId;
    // Held until the very end (closers run in reverse): a restart then finds this id free.
    if (slot) closers.push(() => slot.release());
    const provider = await openBrowsers(browsersOption, {
      ...{ dataDir, publicUrl, clock, logger, orphanSearches: storage.orphanSearches },
      instanceId: resolvedId.id,
    });
    // A provider a host built may hold its browsers under an id of its own: that id is the instance's.
    const instanceId = provider.instanceId ?? resolvedId.id;
    // The proxy bytes this instance's browsers metered (local: at the egress proxy), stored every few
    // seconds. Closed after the provider (closers run in reverse), so the last bytes of the sessions
    // it ends at close are stored too, and before the database.
    const take = provider.takeProxyBytes?.bind(provider);
    const proxyBytes = take
      ? new ProxyBytesFlusher({
          take,
          sessions: storage.sessions,
          logger,
          intervalSec: options.proxyBytesFlushSec ?? 5,
        })
      : undefined;
    if (proxyBytes) closers.push(() => proxyBytes.close());
    const lifecycle = provider.capabilities?.lifecycle;
    // The provider's background work (Browserbase's orphan searches): stopped before the database closes.
    const background = provider.capabilities?.background;
    if (background) closers.push(() => background.stop());
    let storeEndedSessions = async (): Promise<void> => {};
    if (lifecycle) {
      await lifecycle.start();
      // Closing ends every session at once; one last reconcile pass stores them with that moment
      // while their browsers stop, before the database closes.
      closers.push(async () => {
        const closing = lifecycle.close();
        await storeEndedSessions();
        await closing;
      });
    }
    // Closed before the provider (closers run in reverse): viewers are told the end first. A hub
    // given in the overrides is its giver's to close.
    const cdp = provider.capabilities?.cdp;
    const ownHub = overrides.liveView === undefined && cdp ? new ScreencastHub({ cdp, logger }) : undefined;
    if (ownHub) closers.push(() => ownHub.close());
    const liveView = overrides.liveView === undefined ? ownHub : (overrides.liveView ?? undefined);
    // Several instances on one database: calls about the sessions another one holds are carried to it.
    const instances = storage.instances
      ? openInstances({
          ...{ registry: storage.instances, instanceId, secrets, provider, logger },
          hub: liveView,
          url: (options.instance?.url ?? publicUrl).replace(/\/+$/, ''),
          reconcileIntervalSec: options.reconcileIntervalSec ?? 15,
        })
      : undefined;
    if (instances) closers.push(async () => instances.forwarder.close());
    const runHooks = registerRunMetrics(metrics, { runs: storage.runs, queue: runQueue });
    // Bound to the HTTP side's upgrade handler once it is built (below).
    const ownUpgrades = new OwnUpgrades(publicUrl);
    const opening = await openScriptRunner({
      ownUpgrade: ownUpgrades.serve,
      browsers: browsersOption,
      runs: runOptions,
      dataDir,
      logger,
      onSpawned: runHooks.spawned,
      given: overrides.scriptRunner,
    });
    // Closed after the worker (closers run in reverse): its last runs end before their processes go.
    closers.push(() => opening.close());
    const scriptRunner = opening.runner;
    const timers = overrides.timers ?? new SystemTimers();
    const { changes: runChanges, close: closeRunChanges } = await openRunChanges(opened.postgres, logger);
    closers.push(closeRunChanges);
    const domainUseCases = createUseCases({
      ...storage,
      identity,
      provider: new InstrumentedBrowserProvider({ provider: instances?.provider ?? provider, metrics }),
      cursorSigner: secrets.signer('log-cursor'),
      liveViewSigner: secrets.signer('live-view'),
      apiKeySecrets: new NodeApiKeySecrets(),
      extensionInspector: new ZipExtensionArchiveInspector(),
      clock,
      ids,
      logger,
      rateLimits: options.rateLimits,
      maxProjectsPerUser: options.maxProjectsPerUser,
      runQueue,
      runChanges,
      scriptRunner,
      timers,
      runMaxLogBytes: runOptions.maxLogBytes,
      runMaxQueuedPerOwner: runOptions.maxQueuedPerOwner,
      runMaxWaitersPerOwner: runOptions.maxWaitersPerOwner,
      runRetentionDays: runOptions.retentionDays,
      uploadMaxBytes: options.uploadMaxBytes,
    });
    const useCases = withUseCaseOverrides(domainUseCases, overrides.useCases);
    const { countActiveSessions } = storage;
    if (countActiveSessions) {
      metrics.gauge('browserdeck_active_sessions', 'Sessions PENDING or RUNNING, in every project.', () =>
        countActiveSessions(),
      );
    }
    const http = composeHttp(
      {
        useCases,
        providerName: provider.name,
        database: storage.database,
        logger,
        metrics,
        settings: options.http,
        publicUrl,
        liveView: instances ? instances.liveView : liveView,
      },
      {
        upgrades: provider.capabilities?.upgrades,
        webdriver: provider.capabilities?.webdriver,
        instances,
        mountPrefix: new URL(publicUrl).pathname.replace(/\/+$/, ''),
        overrides,
      },
    );
    ownUpgrades.bind(http.handleUpgrade);
    // Before anything is served: sessions a previous run of this instance left active are ended.
    const membership = instances?.membership(useCases.sessions.endLostInstance);
    if (membership) {
      await membership.join();
      closers.push(() => membership.stop());
    }
    const reconciler = new SessionReconciler({
      reconcile: useCases.sessions.reconcile,
      logger,
      intervalSec: options.reconcileIntervalSec ?? 15,
      clock,
    });
    storeEndedSessions = () => reconciler.flush();
    closers.push(() => reconciler.stop());
    // Runs and their logs past RUN_RETENTION_DAYS, deleted in batches; stopped before the database closes.
    const runPruner = new RunPruner({ prune: useCases.runs.prune, logger });
    closers.push(() => runPruner.stop());
    // Closed first (closers run in reverse): canceled runs release their sessions while the provider
    // and the database are still there.
    const worker = createRunWorker({
      ...{ useCases, queue: runQueue, timers, provider, runs: runOptions, logger },
      onRunDone: runHooks.runDone,
    });
    closers.push(() => worker.close());
    let started = false;
    let closing: Promise<void> | undefined;
    return {
      useCases,
      http,
      provider,
      identity,
      storage,
      metrics,
      logger,
      start() {
        if (started || closing) return;
        started = true;
        reconciler.start();
        runPruner.start();
        proxyBytes?.start();
        membership?.start();
        background?.start();
        worker.start();
        if (takesRuns) {
          opening
            .start()
            .catch((error: unknown) =>
              logger.error({ err: error }, 'the script runner could not be set up: runs will fail'),
            );
        }
      },
      close() {
        closing ??= closeAll();
        return closing;
      },
    };
  } catch (error) {
    await closeAll().catch((closeError: unknown) =>
      logger.warn({ err: closeError }, 'could not close what was opened before the failure'),
    );
    throw error;
  }
}
