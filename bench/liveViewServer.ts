/**
 * The server side of the live-view benchmark (bench/liveView.ts), in its own process as a Browserdeck
 * server runs it: the local provider (its default isolation) and a `ScreencastHub` over its `cdp`
 * capability, on one HTTP server on 127.0.0.1:$PORT. Routes: `GET /healthz`; `POST /session` →
 * `{ id, connectUrl }` (a 1280×720 session, keepAlive); the provider's connect upgrades; and the
 * viewer upgrade `/live/<id>?page=…` (no token: the API's check is not what is measured).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalChromiumProvider } from '@browserdeck/adapters/local-chromium';
import { SystemClock } from '@browserdeck/domain';
import { ScreencastHub } from '../packages/adapters/src/browsers/live-view/ScreencastHub.ts';

const port = Number(process.env.PORT);
const publicUrl = `http://127.0.0.1:${port}`;
const scratch = await mkdtemp(join(tmpdir(), 'browserdeck-bench-live-'));
const provider = new LocalChromiumProvider({
  publicUrl,
  dataDir: scratch,
  tempDir: scratch,
  maxSessions: 2,
  maxSessionsPerOwner: 2,
  warmBrowsers: 0,
  clock: new SystemClock(),
});
await provider.start();
const interval = process.env.LIVEVIEW_MIN_FRAME_INTERVAL_MS;
const hub = new ScreencastHub({
  cdp: provider.capabilities.cdp!,
  ...(interval === undefined ? {} : { minFrameIntervalMs: Number(interval) }),
});

const server = createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/healthz') {
    res.writeHead(200).end('ok');
    return;
  }
  if (req.method === 'POST' && req.url === '/session') {
    provider
      .create({
        sessionId: `bench-${Date.now()}`,
        projectId: 'bench',
        ownerId: 'bench',
        providerProjectId: 'local',
        region: 'local',
        timeoutSec: 3600,
        contextId: null,
        contextPersist: false,
        extensionId: null,
        extension: null,
        proxies: null,
        keepAlive: true,
        viewport: { width: 1280, height: 720 },
        record: null,
      })
      .then(
        (s) =>
          res
            .writeHead(200, { 'content-type': 'application/json' })
            .end(JSON.stringify({ id: s.providerSessionId, connectUrl: s.connectUrl })),
        (error: Error) => res.writeHead(500).end(error.message),
      );
    return;
  }
  res.writeHead(404).end();
});
server.on('upgrade', (req, socket, head) => {
  const url = new URL(req.url ?? '/', publicUrl);
  const live = /^\/live\/([^/]+)$/.exec(url.pathname);
  if (live) {
    hub.serveViewer(req, socket, head, {
      providerSessionId: live[1]!,
      pageId: url.searchParams.get('page'),
      readOnly: true,
    });
    return;
  }
  if (provider.handleUpgrade(req, socket, head) !== true) socket.destroy();
});
await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));

const stop = async () => {
  await hub.close();
  await provider.close();
  server.closeAllConnections();
  server.close();
  await rm(scratch, { recursive: true, force: true });
  process.exit(0);
};
process.once('SIGTERM', () => void stop());
process.once('SIGINT', () => void stop());
