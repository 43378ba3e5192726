import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { refuseUpgrade } from '@browserdeck/adapters/http-koa';
import type { LocalChromiumProviderOptions } from '@browserdeck/adapters/local-chromium';
import {
  findChromium,
  HOW_TO_PROVIDE_CHROMIUM,
  LocalChromiumProvider,
  TEMP_PROFILE_PREFIX,
} from '@browserdeck/adapters/local-chromium';
import { type CreateBrowserRequest, SystemClock } from '@browserdeck/domain';
import { browserRequest as baseRequest } from '@browserdeck/testing';

/**
 * The browser these tests run, found as the provider finds it. Throws (failing the suite, never
 * skipping it) when there is none.
 */
export async function requireChromium(): Promise<string> {
  const found = await findChromium();
  if (!found)
    throw new Error(
      `The local provider tests need a Chromium and none was found. ${HOW_TO_PROVIDE_CHROMIUM}`,
    );
  return found.path;
}

/**
 * A started provider on a scratch folder, its upgrades served by a loopback HTTP server, as a host
 * runs it: `npm start`'s egress defaults, the strongest isolation level, two slots a project may
 * fill. `close` stops the browsers and removes everything.
 */
export async function startLocalProvider(overrides: Partial<LocalChromiumProviderOptions> = {}): Promise<{
  provider: LocalChromiumProvider;
  dataDir: string;
  close(): Promise<void>;
}> {
  await requireChromium();
  const scratch = await makeScratchDir();
  const connect = await startConnectServer();
  const provider = new LocalChromiumProvider({
    publicUrl: connect.publicUrl,
    dataDir: scratch.dir,
    tempDir: scratch.dir,
    maxSessions: 2,
    maxSessionsPerOwner: 2,
    warmBrowsers: 0,
    clock: new SystemClock(),
    ...overrides,
  });
  connect.attach(provider);
  await provider.start();
  return {
    provider,
    dataDir: scratch.dir,
    close: async () => {
      await provider.close();
      await connect.close();
      await scratch.remove();
    },
  };
}

/** A create request for the local provider (its project and region), `overrides` over them. */
export function browserRequest(overrides: Partial<CreateBrowserRequest> = {}): CreateBrowserRequest {
  return baseRequest({ providerProjectId: 'local', region: 'local', ...overrides });
}

/** A plain HTTP server on 127.0.0.1:0 whose `upgrade` event is served by a provider, as a host would. */
export async function startConnectServer(): Promise<{
  publicUrl: string;
  attach(provider: LocalChromiumProvider): void;
  close(): Promise<void>;
}> {
  let provider: LocalChromiumProvider | null = null;
  const server = createServer((_req, res) => res.writeHead(404).end());
  server.on('upgrade', (req, socket, head) => {
    const outcome = provider?.handleUpgrade(req, socket, head) ?? false;
    if (outcome === false) socket.destroy();
    else if (outcome !== true) refuseUpgrade(req, socket, outcome.code, outcome.detail);
  });
  const port = await listen(server);
  return {
    publicUrl: `http://127.0.0.1:${port}`,
    attach: (p) => {
      provider = p;
    },
    close: () => closeServer(server),
  };
}

/**
 * The pages the browser visits: `/` logs to the console, fetches `/data.json` and throws an
 * uncaught error; `/set-cookie`
 * sets a persistent cookie `deck=<value>`; `/cookies` echoes the Cookie header.
 */
export async function startPageServer(): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname === '/') {
      res.writeHead(200, { 'content-type': 'text/html' }).end(
        `<!doctype html><title>deck page</title><p id="out">waiting</p><script>
          console.log('hello from the deck page');
          fetch('/data.json').then(r => r.json()).then(d => { document.getElementById('out').textContent = d.message; });
          setTimeout(() => { throw new Error('deck page failure'); });
        </script>`,
      );
    } else if (url.pathname === '/data.json') {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"message":"data loaded"}');
    } else if (url.pathname === '/set-cookie') {
      const value = url.searchParams.get('value') ?? 'x';
      res.writeHead(200, {
        'set-cookie': `deck=${value}; Max-Age=3600; Path=/`,
        'content-type': 'text/plain',
      });
      res.end('set');
    } else if (url.pathname === '/cookies') {
      res.writeHead(200, { 'content-type': 'text/plain' }).end(req.headers.cookie ?? '');
    } else res.writeHead(404).end();
  });
  const port = await listen(server);
  return { url: `http://127.0.0.1:${port}`, close: () => closeServer(server) };
}

/** A fresh folder for temporary profiles and context data, so leftovers can be counted. */
export async function makeScratchDir(): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'browserdeck-local-test-'));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** Temporary profile folders left in `dir`. */
export async function tempProfilesIn(dir: string): Promise<string[]> {
  return (await readdir(dir)).filter((name) => name.startsWith(TEMP_PROFILE_PREFIX));
}

/** Pids of processes whose command line mentions `dir` (browsers and their children using it). */
export async function processesUsing(dir: string): Promise<number[]> {
  const pids: number[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    const cmdline = await readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.includes(dir)) pids.push(Number(entry));
  }
  return pids;
}

/**
 * The status a WebSocket handshake to `wsUrl` gets: 101 when it is accepted (the socket is then
 * closed), else the HTTP error status.
 */
export function upgradeStatus(wsUrl: string): Promise<number> {
  const url = new URL(wsUrl.replace(/^ws/, 'http'));
  return new Promise((resolve, reject) => {
    const req = request(url, {
      headers: {
        Connection: 'Upgrade',
        Upgrade: 'websocket',
        'Sec-WebSocket-Version': '13',
        'Sec-WebSocket-Key': Buffer.from('0123456789abcdef').toString('base64'),
      },
    });
    req.on('upgrade', (res, socket) => {
      socket.destroy();
      resolve(res.statusCode ?? 0);
    });
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

/** True while any process of the group led by `pid` is alive. */
export function processGroupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Polls `check` until it returns true (or throws after `timeoutMs`). */
export async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}
