import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createBrowserdeck } from '@browserdeck/adapters';
import type { IdentityProvider } from '@browserdeck/domain';
import {
  FakeBrowserProvider,
  FakeScriptRunner,
  InMemoryIdentityProvider,
  ManualClock,
  ManualTimers,
  SequentialIdGenerator,
} from '@browserdeck/testing';
import { captureLogs } from './captureLogs.ts';
import { FakeLiveViewHub } from './FakeLiveViewHub.ts';
import { inMemoryStorage } from './inMemoryStorage.ts';
import { ManualRecheckTimer } from './ManualRecheckTimer.ts';
import type { TestApp, TestAppOptions } from './TestApp.ts';
import { testAppClient } from './testAppClient.ts';

/**
 * Starts the real app on a random port of 127.0.0.1, composed by `createBrowserdeck` over the
 * domain's in-memory ports and a fake provider, with the test's `overrides`; call `close()` when done.
 */
export async function createTestApp(options?: TestAppOptions): Promise<TestApp>;
export async function createTestApp<I extends IdentityProvider>(
  options: TestAppOptions<I> & { identity: TestAppOptions<I>['identity'] },
): Promise<TestApp<I>>;
export async function createTestApp(
  options: TestAppOptions<IdentityProvider> = {},
): Promise<TestApp<IdentityProvider>> {
  const clock = options.clock ?? new ManualClock();
  const ids = new SequentialIdGenerator();
  const identity = options.identity
    ? await options.identity({ clock, ids })
    : new InMemoryIdentityProvider({ ids, clock });
  const storage = inMemoryStorage(clock);
  const provider = new FakeBrowserProvider({
    clock,
    name: options.providerName ?? 'browserbase',
    ...(options.regions ? { regions: options.regions } : {}),
    ...(options.loadsExtensions === undefined ? {} : { loadsExtensions: options.loadsExtensions }),
  });
  const { logger, logs, rawLogs } = captureLogs();
  const liveView = options.liveView === undefined ? new FakeLiveViewHub() : (options.liveView ?? undefined);
  const liveViewRecheck = new ManualRecheckTimer();
  const scriptRunner = new FakeScriptRunner({ clock });
  const timers = new ManualTimers();
  // Listening first, so the app's public URL (the live-view links) is where it really is.
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const browserdeck = await createBrowserdeck({
    database: { storage },
    identity: { provider: identity },
    browsers: { provider },
    // A key of its own, so log cursors are signed as in production and nothing is written to disk.
    secretKey: randomBytes(32).toString('base64'),
    logger,
    clock,
    ids,
    publicUrl: baseUrl,
    uploadMaxBytes: options.uploadMaxBytes,
    access: options.access,
    // Every answer of every HTTP test is checked against its route's declared schema.
    http: { validateResponses: true },
    // `start()` runs the run worker; the session reconciler, which tests drive themselves, never passes.
    reconcileIntervalSec: 86_400,
    // At close, runs still held are canceled at once.
    runs: { worker: options.runWorker ?? true, concurrency: 4, shutdownGraceSec: 0 },
    overrides: {
      ...options.overrides,
      liveView: liveView ?? null,
      liveViewRecheck: { timer: liveViewRecheck.timer },
      scriptRunner,
      timers,
    },
  });
  browserdeck.start();
  server.on('request', browserdeck.http.app.callback());
  server.on('upgrade', browserdeck.http.handleUpgrade);

  const close = async () => {
    await new Promise<void>((resolve, reject) => {
      server.closeAllConnections();
      server.close((error) => (error ? reject(error) : resolve()));
    });
    await liveView?.close();
    await browserdeck.close();
  };

  return {
    app: browserdeck.http.app,
    baseUrl,
    browserdeck,
    clock,
    identity,
    users: storage.users,
    members: storage.members,
    invitations: storage.invitations,
    auditLog: storage.auditLog,
    projects: storage.projects,
    sessions: storage.sessions,
    agents: storage.agents,
    apiKeys: storage.apiKeys,
    extensions: storage.extensions,
    idempotency: storage.idempotency,
    runs: storage.runs,
    runLogs: storage.runLogs,
    scriptRunner,
    timers,
    provider,
    liveView,
    liveViewRecheck,
    logs,
    rawLogs,
    ...testAppClient(baseUrl),
    close,
  };
}
