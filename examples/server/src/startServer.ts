import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { Config } from './config.ts';
import { createContainer } from './createContainer.ts';
import { TOKENS } from './tokens.ts';

/** A running server. */
export interface RunningServer {
  /** The address it listens on, e.g. `http://127.0.0.1:3000`. */
  readonly url: string;
  readonly server: Server;
  /** Stops accepting, lets in-flight requests finish (up to `graceMs`), then closes the database. */
  stop(graceMs?: number): Promise<void>;
}

/** Builds the container, opens (and migrates) the database, and listens. */
export async function startServer(config: Config, logger: Logger): Promise<RunningServer> {
  const container = await createContainer(config, logger);
  const orm = await container.getAsync(TOKENS.Orm);
  const app = await container.getAsync(TOKENS.HttpApp);
  const server = createServer(app.callback());
  server.listen(config.PORT, config.HOST);
  await once(server, 'listening');
  const { address, port } = server.address() as AddressInfo;
  const url = `http://${address.includes(':') ? `[${address}]` : address}:${port}`;
  let stopping: Promise<void> | undefined;
  return {
    url,
    server,
    stop(graceMs = 10_000) {
      stopping ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        const timer = setTimeout(() => server.closeAllConnections(), graceMs);
        await closed;
        clearTimeout(timer);
        await orm.close();
      })();
      return stopping;
    },
  };
}
