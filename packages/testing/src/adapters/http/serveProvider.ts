import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ComposableBrowserProvider, createBrowserdeck } from '@browserdeck/adapters';
import { SystemClock } from '@browserdeck/domain';
import { InMemoryIdentityProvider, SequentialIdGenerator } from '@browserdeck/testing';
import { pino } from 'pino';
import { inMemoryStorage } from './inMemoryStorage.ts';

/** A provider served by the real HTTP app (`serveProvider`), and how to stop both. */
export interface ServedProvider<P extends ComposableBrowserProvider> {
  readonly provider: P;
  /** Where the app listens (127.0.0.1), the provider's `publicUrl`. */
  readonly publicUrl: string;
  close(): Promise<void>;
}

/**
 * A real provider behind the service's own HTTP app on a random port of 127.0.0.1: `make` builds
 * it for the app's public URL, `createBrowserdeck` composes it (in-memory storage and identity,
 * no run worker) and starts it, and the app serves its upgrade and WebDriver endpoints as `npm start`
 * does. Tests then drive the provider directly and its sessions' `connectUrl`/`seleniumRemoteUrl`
 * over HTTP. `close` stops the server and the composition (which closes the provider).
 */
export async function serveProvider<P extends ComposableBrowserProvider>(
  make: (publicUrl: string) => P | Promise<P>,
): Promise<ServedProvider<P>> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const publicUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const closeServer = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  const clock = new SystemClock();
  let browserdeck: Awaited<ReturnType<typeof createBrowserdeck>>;
  let provider: P;
  try {
    provider = await make(publicUrl);
    browserdeck = await createBrowserdeck({
      database: { storage: inMemoryStorage(clock) },
      identity: { provider: new InMemoryIdentityProvider({ ids: new SequentialIdGenerator(), clock }) },
      browsers: { provider },
      secretKey: randomBytes(32).toString('base64'),
      logger: pino({ level: 'silent' }),
      clock,
      publicUrl,
      runs: { worker: false },
    });
  } catch (error) {
    await closeServer();
    throw error;
  }
  server.on('request', browserdeck.http.app.callback());
  server.on('upgrade', browserdeck.http.handleUpgrade);
  return {
    provider,
    publicUrl,
    close: async () => {
      await closeServer();
      await browserdeck.close();
    },
  };
}
