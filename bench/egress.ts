/**
 * Egress benchmark (issue 27): a page load through the session's upstream proxy against the same load
 * direct through the egress proxy alone, the upstream's own cost measured apart, the metering's cost on
 * the egress proxy's throughput, and a create with an extension (always cold) against a warm create.
 * Prints a markdown section (section 13 of docs/benchmarks.md). All traffic is on 127.0.0.1.
 *
 *   npm exec -- node --conditions=source bench/egress.ts [loads]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import http, { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { EgressPolicy, EgressProxy, LocalChromiumProvider } from '@browserdeck/adapters/local-chromium';
import { type CreateBrowserRequest, type SessionExtension, SystemClock } from '@browserdeck/domain';
import { browserRequest } from '@browserdeck/testing';
import { extensionZip } from '@browserdeck/testing/adapters';
import { chromium } from 'playwright-core';
import { Server as ProxyServer } from 'proxy-chain';

const LOADS = Number(process.argv[2] ?? 30);
const THROUGHPUT_SEC = Number(process.env.BENCH_EGRESS_THROUGHPUT_SEC ?? 3);
const THROUGHPUT_ROUNDS = Number(process.env.BENCH_EGRESS_THROUGHPUT_ROUNDS ?? 4);
const CREATES = Number(process.env.BENCH_EGRESS_CREATES ?? 5);
const ISOLATION = (process.env.BENCH_ISOLATION ?? 'on') as 'on' | 'off' | 'bubblewrap' | 'namespaces';

/** A page of about 100 KB with 10 subresources: each load is 11 requests through the proxies. */
const PAGE = `<!doctype html><title>bench</title>${Array.from({ length: 10 }, (_, i) => `<img src="/img/${i}.svg">`).join('')}<p>${'x'.repeat(100_000)}</p>`;
const IMAGE = `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>`;
const BLOB = Buffer.alloc(1024 * 1024, 7);

const site = createServer((req, res) => {
  const path = new URL(req.url ?? '/', 'http://x').pathname;
  if (path === '/page')
    return res.writeHead(200, { 'Content-Type': 'text/html', 'Cache-Control': 'no-store' }).end(PAGE);
  if (path.startsWith('/img/'))
    return res.writeHead(200, { 'Content-Type': 'image/svg+xml', 'Cache-Control': 'no-store' }).end(IMAGE);
  if (path === '/blob') return res.writeHead(200, { 'Content-Type': 'application/octet-stream' }).end(BLOB);
  res.writeHead(404).end();
});
await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
const sitePort = (site.address() as AddressInfo).port;
const siteUrl = `http://127.0.0.1:${sitePort}`;

const upstream = new ProxyServer({ host: '127.0.0.1', port: 0 });
await upstream.listen();
const upstreamUrl = `http://127.0.0.1:${upstream.port}`;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const p95 = (values: number[]) => [...values].sort((a, b) => a - b)[Math.ceil(values.length * 0.95) - 1]!;

/** One GET of `url` through `proxy` (absolute-URI form) or direct; resolves with the elapsed ms. */
function get(url: string, proxy?: string): Promise<number> {
  const start = performance.now();
  const target = new URL(url);
  const via = proxy ? new URL(proxy) : target;
  return new Promise((resolve, reject) => {
    const req = http.get(
      { host: via.hostname, port: via.port, path: proxy ? url : target.pathname, agent: false },
      (res) => {
        res.resume();
        res.on('end', () => resolve(performance.now() - start));
      },
    );
    req.on('error', reject);
  });
}

// 1. The upstream's own cost, apart from any browser: the same GET straight and through it.
const straight: number[] = [];
const viaUpstream: number[] = [];
for (let i = 0; i < LOADS * 3; i++) {
  straight.push(await get(`${siteUrl}/page?i=${i}`));
  viaUpstream.push(await get(`${siteUrl}/page?i=${i}`, upstreamUrl));
}

// 2. Page loads in a real session, direct through the egress proxy against through the upstream too.
const scratch = await mkdtemp(join(tmpdir(), 'browserdeck-bench-egress-'));
let provider: LocalChromiumProvider | null = null;
const service = createServer((_req, res) => res.writeHead(404).end());
service.on('upgrade', (req, socket, head) => {
  if (!provider?.handleUpgrade(req, socket, head)) socket.destroy();
});
await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
const publicUrl = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;

const request = (overrides: Partial<CreateBrowserRequest> = {}): CreateBrowserRequest =>
  browserRequest({ region: 'local', providerProjectId: 'local', timeoutSec: 600, ...overrides });

const direct: number[] = [];
const chained: number[] = [];
const creates = { warm: [] as number[], extension: [] as number[] };
let extensionError: string | null = null;
try {
  provider = new LocalChromiumProvider({
    publicUrl,
    dataDir: scratch,
    tempDir: scratch,
    maxSessions: 4,
    maxSessionsPerOwner: 4,
    warmBrowsers: 1,
    isolation: ISOLATION,
    clock: new SystemClock(),
    egress: { allow: [`127.0.0.1:${sitePort}`, `127.0.0.1:${upstream.port}`] },
  });
  await provider.start();
  const sessions = [
    await provider.create(request()),
    await provider.create(request({ proxies: [{ type: 'external', server: upstreamUrl }] })),
  ];
  const pages = [];
  for (const session of sessions) {
    const browser = await chromium.connectOverCDP(session.connectUrl);
    const context = browser.contexts()[0]!;
    pages.push(context.pages()[0] ?? (await context.newPage()));
  }
  const [directPage, chainedPage] = pages as [(typeof pages)[0], (typeof pages)[0]];
  const load = async (page: typeof directPage, i: number) => {
    const start = performance.now();
    await page.goto(`${siteUrl}/page?i=${i}`, { waitUntil: 'load' });
    return performance.now() - start;
  };
  for (let i = 0; i < 3; i++) {
    await load(directPage, -i);
    await load(chainedPage, -i);
  }
  // Interleaved, alternating which side goes first, so drift in the host's load hits both alike.
  for (let i = 0; i < LOADS; i++) {
    if (i % 2) {
      direct.push(await load(directPage, i));
      chained.push(await load(chainedPage, i));
    } else {
      chained.push(await load(chainedPage, i));
      direct.push(await load(directPage, i));
    }
  }
  for (const session of sessions) await provider.release(session.providerSessionId);

  // 3. A create with an extension (cold: warm browsers cannot have it) against a warm create.
  const extension: SessionExtension = {
    id: 'bench-extension',
    name: 'bench',
    providerExtensionId: null,
    archive: await extensionZip({
      'manifest.json': JSON.stringify({ manifest_version: 3, name: 'bench', version: '1.0' }),
    }),
  };
  for (let i = 0; i < CREATES; i++) {
    await provider.warmPoolSettled();
    let start = performance.now();
    const warm = await provider.create(request());
    creates.warm.push(performance.now() - start);
    await provider.release(warm.providerSessionId);
    await provider.warmPoolSettled();
    start = performance.now();
    try {
      const cold = await provider.create(request({ extensionId: extension.id, extension }));
      creates.extension.push(performance.now() - start);
      await provider.release(cold.providerSessionId);
    } catch (error) {
      extensionError = error instanceof Error ? error.message : String(error);
      break;
    }
  }
} finally {
  await provider?.close();
  service.close();
  await rm(scratch, { recursive: true, force: true });
}

// 4. The metering's cost on throughput: 1 MiB GETs through an egress proxy, the meter read every
// 5 s (as the server does) against read every 10 ms (a stress of the same path), interleaved rounds.
async function throughput(readEveryMs: number | null): Promise<number> {
  const proxy =
    readEveryMs === null
      ? await bareProxy()
      : await EgressProxy.start({ policy: new EgressPolicy({ allow: [`127.0.0.1:${sitePort}`] }) });
  const reader = setInterval(() => proxy.takeBytes(), readEveryMs ?? 60_000);
  let bytes = 0;
  const until = performance.now() + THROUGHPUT_SEC * 1000;
  const client = async () => {
    while (performance.now() < until) {
      await get(`${siteUrl}/blob`, proxy.url);
      bytes += BLOB.length;
    }
  };
  await Promise.all(Array.from({ length: 8 }, client));
  clearInterval(reader);
  await proxy.close();
  return bytes / 1024 / 1024 / THROUGHPUT_SEC;
}
/** A zip of `files` (path → text) at its root: an extension archive as a client uploads one. */
/** proxy-chain alone, no policy and no meter: the floor the egress proxy is built on. */
async function bareProxy() {
  const server = new ProxyServer({ host: '127.0.0.1', port: 0 });
  await server.listen();
  return { url: `http://127.0.0.1:${server.port}`, takeBytes: () => 0, close: () => server.close(true) };
}
const metered = { bare: [] as number[], rare: [] as number[], often: [] as number[] };
for (let round = 0; round < THROUGHPUT_ROUNDS; round++) {
  metered.bare.push(await throughput(null));
  metered.rare.push(await throughput(5000));
  metered.often.push(await throughput(10));
}

await upstream.close(true);
site.close();

const upstreamOwn = median(viaUpstream) - median(straight);
const extra = median(chained) - median(direct);
const beyond = extra - upstreamOwn;
const fmt = (n: number) => n.toFixed(1);
console.log(
  `### Upstream proxies (${LOADS} interleaved page loads per side; a 100 KB page with 10 images)\n`,
);
console.log('| measurement | p50 ms | p95 ms |');
console.log('|---|---:|---:|');
console.log(`| page load, direct through the egress proxy | ${fmt(median(direct))} | ${fmt(p95(direct))} |`);
console.log(
  `| page load, through the session's upstream proxy too | ${fmt(median(chained))} | ${fmt(p95(chained))} |`,
);
console.log(
  `| one GET of the page, straight (Node client, no browser) | ${fmt(median(straight))} | ${fmt(p95(straight))} |`,
);
console.log(
  `| the same GET through the upstream alone | ${fmt(median(viaUpstream))} | ${fmt(p95(viaUpstream))} |`,
);
console.log(
  `\nThe upstream adds ${fmt(extra)} ms to a page load (p50); its own cost per GET is ${fmt(upstreamOwn)} ms, so chaining costs ${fmt(beyond)} ms beyond the upstream's own time: ${fmt((100 * beyond) / median(direct))} % of a direct load (target ≤ 5 %: ${beyond <= 0.05 * median(direct) ? 'met' : 'missed'}).\n`,
);
console.log(
  `### Metering (${THROUGHPUT_ROUNDS} interleaved rounds of ${THROUGHPUT_SEC} s, 8 clients, 1 MiB GETs)\n`,
);
console.log('| proxy, meter read | MiB/s median | rounds |');
console.log('|---|---:|---|');
console.log(
  `| proxy-chain alone (no policy, no meter) | ${fmt(median(metered.bare))} | ${metered.bare.map(fmt).join(', ')} |`,
);
console.log(
  `| every 5 s (as the server flushes) | ${fmt(median(metered.rare))} | ${metered.rare.map(fmt).join(', ')} |`,
);
console.log(
  `| every 10 ms (stress) | ${fmt(median(metered.often))} | ${metered.often.map(fmt).join(', ')} |`,
);
console.log(
  `\nReading the meter 500× as often costs ${fmt((100 * (median(metered.rare) - median(metered.often))) / median(metered.rare))} % of throughput.\n`,
);
console.log(`### A create with an extension (${CREATES} runs per side, interleaved)\n`);
if (extensionError) console.log(`Not measured: ${extensionError}\n`);
else {
  console.log('| create | p50 ms | p95 ms |');
  console.log('|---|---:|---:|');
  console.log(`| warm (no extension) | ${fmt(median(creates.warm))} | ${fmt(p95(creates.warm))} |`);
  console.log(
    `| with an extension (always cold: the extension build, unpacked at launch) | ${fmt(median(creates.extension))} | ${fmt(p95(creates.extension))} |`,
  );
}
