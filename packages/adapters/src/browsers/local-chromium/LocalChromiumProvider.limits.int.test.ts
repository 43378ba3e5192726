import { readdir, readFile, stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import {
  browserRequest,
  eventually,
  processTree,
  requireChromium,
  startLocalProvider,
  tempProfilesIn,
} from '@browserdeck/testing/local-chromium';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { LocalChromiumProvider } from './LocalChromiumProvider.ts';
import type { LocalChromiumProviderOptions } from './LocalChromiumProviderOptions.ts';

const MIB = 1024 * 1024;

describe('LocalChromiumProvider: per-browser resource limits (real Chromium)', () => {
  const cleanups: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    await requireChromium();
  });

  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function setUp(options: Partial<LocalChromiumProviderOptions>) {
    const started = await startLocalProvider({
      // The page server is on loopback, which the egress proxy refuses unless allowed.
      egress: { allow: ['127.0.0.1/32'] },
      ...options,
    });
    cleanups.push(started.close);
    return started;
  }

  /** A session with a page open on it through its connectUrl, as a client would have. */
  async function openSession(provider: LocalChromiumProvider) {
    const session = await provider.create(browserRequest());
    const browser = await chromium.connectOverCDP(session.connectUrl);
    cleanups.push(() => browser.close().catch(() => {}));
    const page = await browser.contexts()[0]!.newPage();
    return { id: session.providerSessionId, browser, page };
  }

  /** `Runtime.evaluate` on the page, straight over CDP. */
  async function evaluate(browser: Browser, page: Page, expression: string): Promise<unknown> {
    const cdp = await browser.contexts()[0]!.newCDPSession(page);
    const { result } = await cdp.send('Runtime.evaluate', { expression, returnByValue: true });
    return result.value;
  }

  it('kills a browser at its memory limit: the session ends ERROR, says why, and the others carry on', async () => {
    const { provider } = await setUp({ browserMemoryMb: 256 });
    const victim = await openSession(provider);
    const bystander = await openSession(provider);
    // Up to 1 GiB, 16 MiB at a time, each page of it touched: without a limit this simply succeeds.
    void victim.page
      .evaluate(async () => {
        const kept: Uint8Array[] = [];
        for (let i = 0; i < 64; i++) {
          kept.push(new Uint8Array(16 * 1024 * 1024).fill(1));
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
        return kept.length;
      })
      .catch(() => {});
    await eventually(async () => (await provider.get(victim.id))?.status !== 'RUNNING', 30_000);
    expect(await provider.get(victim.id)).toMatchObject({ status: 'ERROR', endedAt: expect.any(Date) });
    expect(await provider.logs(victim.id)).toContainEqual(
      expect.objectContaining({
        method: 'Browserdeck.browserKilled',
        request: expect.objectContaining({ params: { reason: 'memory_limit', limitBytes: 256 * MIB } }),
      }),
    );
    expect(await provider.get(bystander.id)).toMatchObject({ status: 'RUNNING' });
    expect(await evaluate(bystander.browser, bystander.page, '6 * 7')).toBe(42);
  });

  it('stops a worker bomb at the task limit: the browser never holds more threads than allowed', async () => {
    const limit = 160;
    const { provider } = await setUp({ browserPids: limit });
    const bomb = await openSession(provider);
    const bystander = await openSession(provider);
    const leader = provider.inspect(bomb.id)!.pid;
    let most = await threadsOf(leader);
    // 400 dedicated workers, each a thread of the renderer; the page counts those that started.
    void bomb.page
      .evaluate(`(() => {
        window.started = 0;
        window.failed = 0;
        const source = URL.createObjectURL(new Blob(['postMessage(1); setInterval(() => {}, 1000);']));
        for (let i = 0; i < 400; i++) {
          const worker = new Worker(source);
          worker.onmessage = () => window.started++;
          worker.onerror = () => window.failed++;
        }
      })()`)
      .catch(() => {});
    // Until every worker has answered, failed, or the renderer is gone: sampled all along.
    await eventually(async () => {
      most = Math.max(most, await threadsOf(leader));
      const counts = await bomb.page
        .evaluate<number>('(window.started ?? 0) + (window.failed ?? 0)')
        .catch(() => -1);
      return counts === -1 || counts >= 400 || (await provider.get(bomb.id))?.status !== 'RUNNING';
    }, 40_000).catch(() => {
      // A renderer stuck unable to start threads is fine: the samples so far are what counts.
    });
    most = Math.max(most, await threadsOf(leader));
    expect(most).toBeGreaterThan(20);
    expect(most).toBeLessThanOrEqual(limit);
    expect(await provider.get(bystander.id)).toMatchObject({ status: 'RUNNING' });
    expect(await evaluate(bystander.browser, bystander.page, '6 * 7')).toBe(42);
  });

  it('fails a download past the disk limit in the browser, and nothing of it lands on the host disk', async () => {
    const files = await startDownloadServer(64 * MIB);
    cleanups.push(files.close);
    const { provider, dataDir } = await setUp({ sessionDiskMb: 24 });
    const session = await openSession(provider);
    const cdp = await session.browser.newBrowserCDPSession();
    const outcome = new Promise<string>((resolve) =>
      cdp.on('Browser.downloadProgress', (event) => {
        if (event.state !== 'inProgress') resolve(event.state);
      }),
    );
    await cdp.send('Browser.setDownloadBehavior', {
      behavior: 'allow',
      downloadPath: '/ignored',
      eventsEnabled: true,
    });
    await session.page.goto(`${files.url}/big.bin`).catch(() => {});
    expect(await outcome).toBe('canceled');
    // The host disk holding the scratch folder (profiles, downloads) got less than the limit.
    expect(await bytesOnSameDisk(dataDir)).toBeLessThan(24 * MIB);
    expect(await provider.get(session.id)).toMatchObject({ status: 'RUNNING' });
    await provider.release(session.id);
    await eventually(async () => (await tempProfilesIn(dataDir)).length === 0);
  });
});

/** Threads of every process of the browser's tree (what a task limit counts). */
async function threadsOf(leader: number): Promise<number> {
  let threads = 0;
  for (const { pid } of await processTree(leader)) {
    const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
    threads += Number(/^Threads:\s+(\d+)/m.exec(status)?.[1] ?? 0);
  }
  return threads;
}

/** Bytes of the files under `dir` that lie on `dir`'s own file system (not on a mount inside it). */
async function bytesOnSameDisk(dir: string): Promise<number> {
  const device = (await stat(dir)).dev;
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    const info = await stat(path).catch(() => null);
    if (!info || info.dev !== device) continue;
    if (info.isDirectory()) total += await bytesOnSameDisk(path);
    else if (info.isFile()) total += info.blocks * 512;
  }
  return total;
}

/** Serves `/big.bin`: `bytes` of zeros as an attachment, streamed in 1 MiB chunks. */
async function startDownloadServer(bytes: number): Promise<{ url: string; close(): Promise<void> }> {
  const chunk = Buffer.alloc(MIB);
  const server: Server = createServer((req, res) => {
    if (req.url !== '/big.bin') return void res.writeHead(404).end();
    res.writeHead(200, {
      'content-type': 'application/octet-stream',
      'content-length': String(bytes),
      'content-disposition': 'attachment; filename="big.bin"',
    });
    let sent = 0;
    const pump = (): void => {
      while (sent < bytes) {
        sent += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      res.end();
    };
    res.on('close', () => res.destroy());
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
