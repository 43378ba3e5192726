import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import {
  type ConnectRefusal,
  httpServerOptions,
  type PrivateDirReport,
  refuseUpgrade,
  securePrivateDir,
} from '@browserdeck/adapters';
import type { Logger } from 'pino';
import type { Config } from './config.ts';
import { createContainer } from './createContainer.ts';
import { SessionReconciler } from './SessionReconciler.ts';
import { TOKENS } from './tokens.ts';

/** A provider that serves WebSocket upgrades on the API server (the local provider's CDP proxy). */
interface UpgradeHandler {
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean | ConnectRefusal;
}

/** A running server. */
export interface RunningServer {
  /** The address it listens on, e.g. `http://127.0.0.1:3000`. */
  readonly url: string;
  readonly server: Server;
  /** Where `/metrics` is served when `METRICS_LISTEN` is set, e.g. `http://127.0.0.1:9464`. */
  readonly metricsUrl?: string | undefined;
  /** Stops accepting, lets in-flight requests finish (up to `graceMs`), stops the reconciler, closes every browser, then the database. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * Makes `DATA_DIR` private (0700, its files 0600) before anything is written there, and builds the
 * container, opens (and migrates) the database, and listens.
 */
export async function startServer(requested: Config, logger: Logger): Promise<RunningServer> {
  const config = await withConcretePort(requested);
  // Not created here when missing: whatever writes there first creates it 0700 (key files, the
  // SQLite file, the local provider's module), and a deployment that keeps nothing there needs none.
  logPrivateDataDir(logger, await securePrivateDir(config.dataDir, { create: false }));
  const container = await createContainer(config, logger);
  const orm = await container.getAsync(TOKENS.Orm);
  const app = await container.getAsync(TOKENS.HttpApp);
  const provider = await container.getAsync(TOKENS.ProviderBackend);
  // Node bounds what the app never sees (slow headers, a body after an early answer), above its cut-off.
  const serverOptions = httpServerOptions(config.REQUEST_TIMEOUT_SEC * 1000);
  const server = createServer(serverOptions, app.callback());
  const metricsServer = config.METRICS_LISTEN
    ? createServer(serverOptions, (await container.getAsync(TOKENS.MetricsApp)).callback())
    : undefined;
  // The local provider serves each session's CDP WebSocket on this server.
  const upgrades = 'handleUpgrade' in provider ? (provider as UpgradeHandler) : undefined;
  // Refusals (and handshakes to any other path) are answered like every API error.
  server.on('upgrade', (req, socket, head) => {
    const outcome = upgrades?.handleUpgrade(req, socket, head) ?? false;
    if (outcome === true) return;
    const path = (req.url ?? '/').split('?')[0];
    const { code, detail } = outcome || {
      code: 'not_found',
      detail: `There is no WebSocket endpoint at ${path}.`,
    };
    refuseUpgrade(req, socket, code, detail);
  });
  const reconciler = new SessionReconciler({
    reconcile: await container.getAsync(TOKENS.ReconcileSessions),
    logger,
    intervalSec: config.RECONCILE_INTERVAL_SEC,
    clock: await container.getAsync(TOKENS.Clock),
  });
  const metricsUrl =
    metricsServer && config.METRICS_LISTEN
      ? await listen(metricsServer, config.METRICS_LISTEN.port, config.METRICS_LISTEN.host)
      : undefined;
  const url = await listen(server, config.PORT, config.HOST).catch((error: unknown) => {
    metricsServer?.close();
    throw error;
  });
  reconciler.start();
  let stopping: Promise<void> | undefined;
  return {
    url,
    server,
    metricsUrl,
    stop(graceMs = 10_000) {
      stopping ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        const metricsClosed = new Promise<void>((resolve) =>
          metricsServer ? metricsServer.close(() => resolve()) : resolve(),
        );
        server.closeIdleConnections();
        metricsServer?.closeAllConnections();
        const timer = setTimeout(() => server.closeAllConnections(), graceMs);
        await Promise.all([closed, metricsClosed, reconciler.stop()]);
        clearTimeout(timer);
        if ('close' in provider) await (provider as { close(): Promise<void> }).close();
        await orm.close();
      })();
      return stopping;
    },
  };
}

/** Listens on `host:port` (rejects when it cannot, e.g. the address is taken); the `http://` URL. */
async function listen(server: Server, port: number, host: string): Promise<string> {
  server.listen(port, host);
  await once(server, 'listening');
  const { address, port: bound } = server.address() as AddressInfo;
  return `http://${address.includes(':') ? `[${address}]` : address}:${bound}`;
}

/** One line when the data folder had looser modes (narrowed now) or some could not be narrowed. */
function logPrivateDataDir(logger: Logger, report: PrivateDirReport): void {
  if (report.tightened.length > 0) {
    logger.warn(
      { dataDir: report.dir, tightened: report.tightened },
      'DATA_DIR was open to other users: made the folder 0700 and its files 0600',
    );
  }
  if (report.refused.length > 0) {
    logger.warn(
      { dataDir: report.dir, refused: report.refused },
      'DATA_DIR is open to other users and this process may not change that: restrict it to the service user',
    );
  }
}

/**
 * With `PORT=0`, picks a free port before anything is built, so the URLs handed out (`PUBLIC_URL`'s
 * default, the local provider's `connectUrl`) name the port the server really listens on.
 */
async function withConcretePort(config: Config): Promise<Config> {
  if (config.PORT !== 0) return config;
  const probe = createServer().listen(0, config.HOST);
  await once(probe, 'listening');
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  const host = config.HOST.includes(':') ? `[${config.HOST}]` : config.HOST;
  return {
    ...config,
    PORT: port,
    publicUrl: config.PUBLIC_URL ? config.publicUrl : `http://${host}:${port}`,
  };
}
