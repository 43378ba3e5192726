import { EventEmitter, once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { type Config, instanceUrlOf } from './config.ts';
import { createContainer } from './createContainer.ts';
import { warnIfMetricsWithheld } from './httpSettings.ts';
import { TOKENS } from './tokens.ts';

/** A running server. */
export interface RunningServer {
  /** The address it listens on, e.g. `http://127.0.0.1:3000`. */
  readonly url: string;
  readonly server: Server;
  /** Where `/metrics` is served when `METRICS_LISTEN` is set, e.g. `http://127.0.0.1:9464`. */
  readonly metricsUrl?: string | undefined;
  /**
   * Stops accepting, lets in-flight HTTP requests finish (for at most half of `graceMs`; connected
   * CDP and live-view clients are not waited for), then closes Browserdeck: its sessions end
   * `COMPLETED` at that moment, their clients hear close code 1001, and what is left is cut.
   */
  stop(graceMs?: number): Promise<void>;
}

/** How the server runs. */
export interface StartServerOptions {
  /**
   * A worker-only process (`npm run worker`): the same composition, taking runs, serving no API
   * routes: only `/healthz`, `/readyz`, `/metrics` and the WebSocket upgrades of its local browsers.
   */
  workerOnly?: boolean | undefined;
}

/** Builds the container (Browserdeck composed from the configuration), listens, and starts the background work. */
export async function startServer(
  requested: Config,
  logger: Logger,
  options: StartServerOptions = {},
): Promise<RunningServer> {
  const config = await withConcretePort(requested);
  const container = await createContainer(config, logger);
  const browserdeck = await container.getAsync(TOKENS.Browserdeck);
  const { http } = browserdeck;
  const app = options.workerOnly ? http.createWorkerApp() : http.app;
  const server = createServer(http.serverOptions, app.callback());
  const requests = inFlightRequests(server);
  // The local provider serves each session's CDP WebSocket on this server; other upgrades are refused.
  server.on('upgrade', http.handleUpgrade);
  const metricsServer = config.METRICS_LISTEN
    ? createServer(http.serverOptions, http.createMetricsApp().callback())
    : undefined;
  let metricsUrl: string | undefined;
  let url: string;
  try {
    metricsUrl =
      metricsServer && config.METRICS_LISTEN
        ? await listen(metricsServer, config.METRICS_LISTEN.port, config.METRICS_LISTEN.host)
        : undefined;
    url = await listen(server, config.PORT, config.HOST);
  } catch (error) {
    metricsServer?.close();
    await browserdeck.close();
    throw error;
  }
  warnIfMetricsWithheld(config, logger);
  browserdeck.start();
  let stopping: Promise<void> | undefined;
  return {
    url,
    server,
    metricsUrl,
    stop(graceMs = 10_000) {
      stopping ??= (async () => {
        // Upgraded sockets (CDP, live view) hold `close` open until they end: Browserdeck ends them.
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        const metricsClosed = new Promise<void>((resolve) =>
          metricsServer ? metricsServer.close(() => resolve()) : resolve(),
        );
        server.closeIdleConnections();
        metricsServer?.closeAllConnections();
        // Half the grace for requests; the rest for ending sessions, storing them and closing.
        await requests.drained(graceMs / 2);
        server.closeAllConnections();
        await browserdeck.close();
        await Promise.all([closed, metricsClosed]);
      })();
      return stopping;
    },
  };
}

/**
 * Counts the HTTP requests `server` is answering; `drained(ms)` resolves once none are left, or
 * after `ms` at the latest. WebSocket upgrades are not requests here.
 */
function inFlightRequests(server: Server): { drained(ms: number): Promise<void> } {
  let count = 0;
  const idle = new EventEmitter();
  server.on('request', (_req: IncomingMessage, res: ServerResponse) => {
    count++;
    res.once('close', () => {
      if (--count === 0) idle.emit('idle');
    });
  });
  return {
    drained: (ms) =>
      count === 0
        ? Promise.resolve()
        : new Promise((resolve) => {
            const timer = setTimeout(resolve, ms);
            idle.once('idle', () => {
              clearTimeout(timer);
              resolve();
            });
          }),
  };
}

/** Listens on `host:port` (rejects when it cannot, e.g. the address is taken); the `http://` URL. */
async function listen(server: Server, port: number, host: string): Promise<string> {
  server.listen(port, host);
  await once(server, 'listening');
  const { address, port: bound } = server.address() as AddressInfo;
  return `http://${address.includes(':') ? `[${address}]` : address}:${bound}`;
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
    instanceUrl: instanceUrlOf(config.INSTANCE_URL, config.HOST, port),
  };
}
