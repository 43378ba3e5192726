import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createBrowserdeck } from '@browserdeck/adapters';
import { fakeBrowserbaseApi } from '@browserdeck/testing/browserbase';
import { FakeGoTrue } from '@browserdeck/testing/identity-supabase';

/**
 * A host app built from the packed tarballs, written as a new user would: Browserbase sessions,
 * Supabase identity and PostgreSQL (`DATABASE_URL`), served on its own `node:http` server. Both
 * vendors are faked in-process by the package's own test kits (nock), so no request leaves the
 * machine. Prints `listening <port>` once it serves, and shuts down cleanly on SIGTERM.
 */
const databaseUrl = process.env.DATABASE_URL;
const dataDir = process.env.DATA_DIR;
if (!databaseUrl || !dataDir) throw new Error('DATABASE_URL and DATA_DIR are required');

const browserbaseUrl = 'https://api.browserbase.test';
const browserbaseKey = 'bb_test_packed_host';
const browserbase = fakeBrowserbaseApi(browserbaseUrl, browserbaseKey);
const gotrue = await new FakeGoTrue({ now: () => new Date() }).start();

const browserdeck = await createBrowserdeck({
  dataDir,
  database: { url: databaseUrl },
  identity: { supabase: { url: gotrue.url, anonKey: 'sb_publishable_packed_host' } },
  browsers: {
    browserbase: { apiKey: browserbaseKey, projectId: 'packed-host-project', baseUrl: browserbaseUrl },
  },
});
const server = createServer(browserdeck.http.serverOptions, browserdeck.http.app.callback());
server.on('upgrade', browserdeck.http.handleUpgrade);
server.listen(0, '127.0.0.1', () => {
  browserdeck.start();
  console.log(`listening ${(server.address() as AddressInfo).port}`);
});

process.once('SIGTERM', () => {
  server.close(async () => {
    await browserdeck.close();
    browserbase.stop();
  });
  server.closeIdleConnections();
});
