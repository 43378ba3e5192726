/**
 * What the browser isolation of issue 14 costs, measured side by side in one run on one confined
 * browser setup (`BENCH_ISOLATION`, default `on`):
 * - page load of a 1 MB page from a loopback server, through the egress proxy vs direct (a second
 *   browser launched without the proxy), alternating;
 * - CDP throughput (small messages/s, 1 MB messages MB/s) through the connect endpoint (WebSocket
 *   proxy with the command policy and the router) vs the provider's own pipe connection;
 * - `/healthz` latency of the same HTTP server, idle vs while clients keep sending 50 MB frames to
 *   the connect endpoint (each refused at its header).
 *
 *   npm exec -- node --conditions=source bench/browserIsolation.ts [runs]
 */

import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  BrowserConfinement,
  EgressPolicy,
  findChromium,
  type IsolationSetting,
} from '@browserdeck/adapters/local-chromium';
import {
  SESSION_LOG_DEFAULT_BUDGET_BYTES,
  SESSION_LOG_ENTRY_MAX_BYTES,
  SystemClock,
} from '@browserdeck/domain';
import { WebSocket } from 'ws';
import type { CdpClient } from '../packages/adapters/src/browsers/cdp/CdpClient.ts';
import { proxyCdpConnection } from '../packages/adapters/src/browsers/cdp/proxyCdpConnection.ts';
import { PreparedBrowser } from '../packages/adapters/src/browsers/local-chromium/launch/PreparedBrowser.ts';
import { TemporaryProfiles } from '../packages/adapters/src/browsers/local-chromium/profiles/TemporaryProfiles.ts';
import { fmt, median, percentile, table } from './stats.ts';

const RUNS = Number(process.argv[2] ?? 30);
const SETTING = (process.env.BENCH_ISOLATION ?? 'on') as IsolationSetting;
const PAGE_BYTES = 1024 * 1024;
const logger = { warn() {}, error() {} };
/** Opens connections and sends one 50 MB frame on each, printing how each closed, until killed. */
const FLOODER = `
import { WebSocket } from ${JSON.stringify(import.meta.resolve('ws'))};
const frame = Buffer.alloc(50 * 1024 * 1024, 0x20);
for (;;) {
  const code = await new Promise((resolve) => {
    const socket = new WebSocket(process.argv[1]);
    socket.on('open', () => socket.send(frame));
    socket.on('close', (c) => resolve(c));
    socket.on('error', () => {});
  });
  console.log(code);
}`;

const chromium = await findChromium();
if (!chromium) throw new Error('no Chromium');
const scratch = await mkdtemp(join(tmpdir(), 'browserdeck-bench-isolation-'));
const confinement = await BrowserConfinement.setUp({
  setting: SETTING,
  hiddenPaths: [process.cwd()],
  logger,
});
const launch = (egress: EgressPolicy | null) =>
  PreparedBrowser.launch({
    executablePath: chromium.path,
    profile: { kind: 'temporary', profiles: new TemporaryProfiles(scratch) },
    confinement,
    egress,
    clock: new SystemClock(),
    logLimits: { maxEntryBytes: SESSION_LOG_ENTRY_MAX_BYTES, maxBytes: SESSION_LOG_DEFAULT_BUDGET_BYTES },
  });

// A 1 MB page on loopback (allowed through the proxy for this measurement only).
const body = `<!doctype html><title>1 MB</title><pre>${'x'.repeat(PAGE_BYTES - 64)}</pre>`;
const pages = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'text/html', 'cache-control': 'no-store' }).end(body);
});
await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
const pageUrl = `http://127.0.0.1:${(pages.address() as AddressInfo).port}/`;

const proxied = await launch(new EgressPolicy({ allow: ['127.0.0.1/32'] }));
const direct = await launch(null);

/** A page target of `browser`'s own connection, with Page events on. */
async function openPage(cdp: CdpClient): Promise<string> {
  const { targetId } = await cdp.send('Target.createTarget', { url: 'about:blank' });
  const { sessionId } = await cdp.send('Target.attachToTarget', { targetId, flatten: true });
  await cdp.send('Page.enable', {}, String(sessionId));
  return String(sessionId);
}

/** The next load event of each page session, resolved by one listener per client. */
const loadWaiters = new Map<string, () => void>();
for (const browser of [proxied, direct])
  browser.cdp.onEvent((event) => {
    if (event.method === 'Page.loadEventFired' && event.sessionId) loadWaiters.get(event.sessionId)?.();
  });

async function timeLoad(cdp: CdpClient, sessionId: string, n: number): Promise<number> {
  const loaded = new Promise<void>((resolve) => loadWaiters.set(sessionId, resolve));
  const start = performance.now();
  const navigation = await cdp.send('Page.navigate', { url: `${pageUrl}?n=${n}` }, sessionId);
  if (navigation.errorText) throw new Error(`navigation failed: ${String(navigation.errorText)}`);
  await loaded;
  return performance.now() - start;
}

const out: string[] = [`browser isolation, level ${confinement.level}, ${RUNS} runs each`];
try {
  // 1. Page load through the egress proxy vs direct, alternating.
  const proxiedPage = await openPage(proxied.cdp);
  const directPage = await openPage(direct.cdp);
  const viaProxy: number[] = [];
  const viaDirect: number[] = [];
  for (let i = 0; i < RUNS + 3; i++) {
    const a = await timeLoad(proxied.cdp, proxiedPage, i);
    const b = await timeLoad(direct.cdp, directPage, i);
    if (i >= 3) {
      viaProxy.push(a);
      viaDirect.push(b);
    }
  }
  out.push(
    '',
    table(
      ['1 MB page load (Page.navigate → load event)', 'p50 ms', 'p95 ms'],
      [
        ['direct (no proxy)', fmt(median(viaDirect), 2), fmt(percentile(viaDirect, 95), 2)],
        ['through the egress proxy', fmt(median(viaProxy), 2), fmt(percentile(viaProxy, 95), 2)],
      ],
    ),
    `overhead at the median: ${fmt((median(viaProxy) / median(viaDirect) - 1) * 100, 1)} % (target ≤ 10 %)`,
  );

  // 2. CDP throughput: through the connect endpoint (ws + policy + router) vs the pipe itself.
  const server = createServer((req, res) => {
    if (req.url === '/healthz')
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
    else res.writeHead(404).end();
  });
  server.on('upgrade', (req, socket, head) =>
    proxyCdpConnection(req, socket, head, {
      upstream: proxied.router,
      folders: { downloadsDir: proxied.downloadsDir },
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const client = await wsClient(`ws://127.0.0.1:${port}/`);
  const { targetId } = await client.send('Target.createTarget', { url: 'about:blank' });
  const { sessionId: wsPage } = await client.send('Target.attachToTarget', { targetId, flatten: true });
  const small = { expression: '1' };
  const large = { expression: `"${'y'.repeat(1024 * 1024)}".length` };
  const rows: string[][] = [];
  for (const [label, send] of [
    [
      'connect endpoint (ws, policy, router)',
      (p: object) => client.send('Runtime.evaluate', p, String(wsPage)),
    ],
    [
      'provider pipe connection',
      (p: object) => proxied.cdp.send('Runtime.evaluate', p as Record<string, unknown>, proxiedPage),
    ],
  ] as const) {
    const msgs = await pipelined(2000, 100, () => send(small));
    const bytes = await pipelined(40, 4, () => send(large));
    rows.push([label, fmt(2000 / (msgs / 1000), 0), fmt((40 * 1.0) / (bytes / 1000), 1)]);
  }
  out.push('', table(['CDP throughput', 'small messages/s', 'MB/s (1 MB messages)'], rows));

  // 3. /healthz while 50 MB frames are refused.
  const idle = await healthz(port, 3000);
  // The frames come from another process: building and masking 50 MB would stall this one.
  const flooder = spawn(process.execPath, ['--input-type=module', '-e', FLOODER, `ws://127.0.0.1:${port}/`], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let flooderOut = '';
  flooder.stdout.on('data', (chunk: Buffer) => {
    flooderOut += chunk;
  });
  await new Promise((resolve) => setTimeout(resolve, 500));
  const busy = await healthz(port, 3000);
  flooder.kill('SIGTERM');
  await new Promise((resolve) => flooder.once('exit', resolve));
  const closes = flooderOut.trim().split('\n');
  const refused = closes.filter((c) => c === '1009').length;
  out.push(
    '',
    table(
      ['GET /healthz', 'p50 ms', 'p95 ms', 'max ms'],
      [
        ['idle', fmt(median(idle), 2), fmt(percentile(idle, 95), 2), fmt(Math.max(...idle), 2)],
        [
          `while another process sends 50 MB frames (${closes.length} connections, all closed by the server: ${refused} saw the 1009 close frame, ${closes.length - refused} a reset mid-send)`,
          fmt(median(busy), 2),
          fmt(percentile(busy, 95), 2),
          fmt(Math.max(...busy), 2),
        ],
      ],
    ),
  );
  client.close();
  server.closeAllConnections();
  server.close();
} finally {
  await Promise.all([proxied.dispose(), direct.dispose()]);
  pages.close();
  await rm(scratch, { recursive: true, force: true });
}
console.log(out.join('\n'));

/** Milliseconds to complete `count` calls with at most `window` in flight. */
async function pipelined(count: number, window: number, call: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  let started = 0;
  const worker = async () => {
    while (started < count) {
      started++;
      await call();
    }
  };
  await Promise.all(Array.from({ length: window }, worker));
  return performance.now() - start;
}

/** `/healthz` latencies, one request every 5 ms for `durationMs`. */
async function healthz(port: number, durationMs: number): Promise<number[]> {
  const times: number[] = [];
  const end = performance.now() + durationMs;
  while (performance.now() < end) {
    await new Promise((resolve) => setTimeout(resolve, 5));
    const start = performance.now();
    await new Promise<void>((resolve, reject) => {
      request({ host: '127.0.0.1', port, path: '/healthz' }, (res) => {
        res.resume();
        res.on('end', resolve);
      })
        .on('error', reject)
        .end();
    });
    times.push(performance.now() - start);
  }
  return times;
}

async function wsClient(url: string): Promise<{
  send(method: string, params: object, sessionId?: string): Promise<Record<string, unknown>>;
  close(): void;
}> {
  const socket = new WebSocket(url, { perMessageDeflate: false });
  const waiting = new Map<number, (result: Record<string, unknown>) => void>();
  let nextId = 1;
  socket.on('message', (data) => {
    const message = JSON.parse(String(data)) as {
      id?: number;
      result?: Record<string, unknown>;
      error?: unknown;
    };
    if (message.id !== undefined) waiting.get(message.id)?.(message.result ?? { error: message.error });
  });
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  return {
    send: (method, params, sessionId) =>
      new Promise((resolve) => {
        const id = nextId++;
        waiting.set(id, (result) => {
          waiting.delete(id);
          resolve(result);
        });
        socket.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
      }),
    close: () => socket.close(),
  };
}
