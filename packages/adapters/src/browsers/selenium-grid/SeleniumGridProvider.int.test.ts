import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { SystemClock, silentLogger } from '@browserdeck/domain';
import {
  gridRequest,
  gridSessionIds,
  type SeleniumGrid,
  startGridProvider,
  startSeleniumGrid,
} from '@browserdeck/testing/selenium-grid';
import { chromium } from 'playwright-core';
import { By, Session, WebDriver } from 'selenium-webdriver';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import type { CdpBrowserMessage } from '../cdp/cdpMessages.ts';
import { NetworkCaptures } from '../cdp/network/NetworkCaptures.ts';
import { Recordings } from '../cdp/recording/Recordings.ts';
import { DISCONNECT_GRACE_MS } from '../cdp/SessionClients.ts';
import { InMemoryBlobStore } from '../shared-state/InMemoryBlobStore.ts';
import type { SeleniumGridProvider } from './SeleniumGridProvider.ts';

// The package has no `exports`: its `http` folder is loaded as CommonJS, typed by @types/selenium-webdriver.
const { Executor, HttpClient } = createRequire(import.meta.url)(
  'selenium-webdriver/http',
) as typeof import('selenium-webdriver/http.js');

/** A raw CDP client on a `connectUrl`: awaits answers by id. */
async function rawClient(url: string) {
  const ws = new WebSocket(url);
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  let nextId = 1;
  const call = (method: string, params: Record<string, unknown> = {}, sessionId?: string) =>
    new Promise<CdpBrowserMessage>((resolve) => {
      const id = nextId++;
      const onMessage = (data: WebSocket.RawData) => {
        const message = JSON.parse(String(data)) as CdpBrowserMessage;
        if (message.id !== id) return;
        ws.off('message', onMessage);
        resolve(message);
      };
      ws.on('message', onMessage);
      ws.send(JSON.stringify({ id, method, params, ...(sessionId === undefined ? {} : { sessionId }) }));
    });
  return { ws, call };
}

/** Waits until the Grid no longer lists `id` (deleting takes it up to ~20 s to stop the driver). */
async function goneFromGrid(gridUrl: string, id: string): Promise<void> {
  await vi.waitFor(async () => expect(await gridSessionIds(gridUrl)).not.toContain(id), {
    timeout: 40_000,
    interval: 250,
  });
}

/** The HTTP status a WebSocket handshake on `url` is refused with (0 when it opens). */
function handshakeStatus(url: string): Promise<number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url);
    ws.once('unexpected-response', (_req, res) => {
      resolve(res.statusCode ?? -1);
      res.resume();
      ws.terminate();
    });
    ws.once('open', () => {
      resolve(0);
      ws.close();
    });
    ws.once('error', () => {});
  });
}

describe('SeleniumGridProvider (a real Selenium Grid 4)', () => {
  let grid: SeleniumGrid;
  let started: Awaited<ReturnType<typeof startGridProvider>>;
  let provider: SeleniumGridProvider;
  /** A page on loopback for the HAR: the Grid's node runs on this machine. */
  let site: Server;
  let siteUrl = '';
  const networkCaptures = new NetworkCaptures({
    blobs: new InMemoryBlobStore(),
    clock: new SystemClock(),
    logger: silentLogger,
  });
  const recordings = new Recordings({
    blobs: new InMemoryBlobStore(),
    clock: new SystemClock(),
    logger: silentLogger,
  });

  beforeAll(async () => {
    site = createServer((req, res) => {
      res.writeHead(req.url === '/page' ? 200 : 404, { 'Content-Type': 'text/html' });
      res.end('<!doctype html><title>grid page</title>');
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    // Slots stay taken while the Grid stops a driver (~20 s with ChromeDriver 156): room for that.
    grid = await startSeleniumGrid({ topology: 'standalone', maxSessionsPerNode: 8 });
    started = await startGridProvider(grid.url, { keepAliveIntervalMs: 500, networkCaptures, recordings });
    provider = started.provider;
  });

  afterAll(async () => {
    await started?.close();
    await grid?.close();
    await new Promise((resolve) => site?.close(resolve));
  });

  it('serves Playwright over connectUrl, logs the console, and deletes the Grid session on release', async () => {
    const created = await provider.create(gridRequest({ viewport: { width: 1024, height: 700 } }));
    expect(created).toMatchObject({ status: 'RUNNING', instanceId: 'grid-test-instance', endedAt: null });
    expect(created.connectUrl).toBe(
      `${started.publicUrl.replace('http:', 'ws:')}/v1/selenium-grid/sessions/${created.providerSessionId}/connect?signingKey=${new URL(created.connectUrl).searchParams.get('signingKey')}`,
    );
    expect(await gridSessionIds(grid.url)).toContain(created.providerSessionId);

    const browser = await chromium.connectOverCDP(created.connectUrl);
    const page = browser.contexts()[0]!.pages()[0]!;
    expect(await page.evaluate('1 + 1')).toBe(2);
    expect(await page.evaluate('[innerWidth, innerHeight]')).toEqual([1024, 700]);
    await page.evaluate(`console.log('hello from the grid')`);
    await vi.waitFor(async () => {
      const logs = await provider.logs(created.providerSessionId);
      const said = logs.find((e) => e.method === 'Runtime.consoleAPICalled');
      expect(JSON.stringify(said?.request?.params)).toContain('hello from the grid');
    });
    // The recorder's connection captures the network for the session's HAR (SPEC §18).
    await page.goto(`${siteUrl}/page`);
    await page.evaluate(`fetch('/missing')`);
    await vi.waitFor(
      async () => {
        const har = await provider.capabilities.network?.har(created.providerSessionId, { sensitive: false });
        const entries = (har?.log.entries ?? []) as Array<{
          request: { url: string };
          response: { status: number };
        }>;
        expect(entries.map((e) => [e.request.url, e.response.status])).toEqual(
          expect.arrayContaining([
            [`${siteUrl}/page`, 200],
            [`${siteUrl}/missing`, 404],
          ]),
        );
      },
      { timeout: 10_000, interval: 250 },
    );

    const released = await provider.release(created.providerSessionId);
    expect(released).toMatchObject({ status: 'COMPLETED', instanceId: 'grid-test-instance' });
    expect(released?.endedAt).toBeInstanceOf(Date);
    await goneFromGrid(grid.url, created.providerSessionId);
    // Playwright is told the session ended; ended sessions still answer their state and logs.
    await vi.waitFor(() => expect(browser.isConnected()).toBe(false));
    expect(await provider.get(created.providerSessionId)).toMatchObject({ status: 'COMPLETED' });
    expect((await provider.logs(created.providerSessionId)).length).toBeGreaterThan(0);
    expect(await handshakeStatus(created.connectUrl)).toBe(409);
    // And records its tab over the same connection: once ended, the video is made (SPEC §18).
    await recordings.idle();
    const recording = await provider.capabilities.recording?.recording(created.providerSessionId);
    expect(recording, JSON.stringify(recording)).toMatchObject({ state: 'READY', capped: false });
    expect(recording?.pages[0]).toMatchObject({ pageId: '0', url: `${siteUrl}/page`, title: 'grid page' });
    expect(recording?.pages[0]?.frames).toBeGreaterThan(0);
    const mp4 = await provider.capabilities.recording?.file(created.providerSessionId, '0', 'video.mp4');
    expect(Buffer.from(mp4 ?? []).toString('latin1', 4, 8)).toBe('ftyp');
  });

  it('serves selenium-webdriver over seleniumRemoteUrl, on the browser Playwright drives, bound to that one session', async () => {
    const created = await provider.create(gridRequest({ sessionId: 'bd-session-1' }));
    const other = await provider.create(gridRequest());
    try {
      const remote = created.seleniumRemoteUrl!;
      const key = new URL(created.connectUrl).searchParams.get('signingKey');
      expect(remote).toBe(
        `${started.publicUrl}/v1/selenium-grid/sessions/${created.providerSessionId}/webdriver/${key}`,
      );
      const driver = new WebDriver(new Session('bd-session-1', {}), new Executor(new HttpClient(remote)));
      await driver.get('data:text/html,<title>Grid page</title><p id="x">hello</p>');
      expect(await driver.getTitle()).toBe('Grid page');
      expect(await driver.findElement(By.id('x')).getText()).toBe('hello');

      const browser = await chromium.connectOverCDP(created.connectUrl);
      const page = browser.contexts()[0]!.pages()[0]!;
      expect(await page.title()).toBe('Grid page');
      await browser.close();

      // Bound to its session: another session's id and a wrong key are refused; a new session is this one.
      const stranger = new WebDriver(
        new Session(other.providerSessionId, {}),
        new Executor(new HttpClient(remote)),
      );
      await expect(stranger.getTitle()).rejects.toThrow(/not it/);
      const created2 = await fetch(`${remote}/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ capabilities: {} }),
      });
      expect(created2.status).toBe(200);
      expect(((await created2.json()) as { value: { sessionId: string } }).value.sessionId).toBe(
        created.providerSessionId,
      );
      const wrongKey = remote.replace(key!, 'wrong');
      expect((await fetch(`${wrongKey}/session/bd-session-1/title`)).status).toBe(401);
      // Deleting through WebDriver leaves the session running; releasing it ends the endpoint.
      await driver.quit();
      expect(await gridSessionIds(grid.url)).toContain(created.providerSessionId);
      await provider.release(created.providerSessionId);
      expect((await fetch(`${remote}/session/bd-session-1/title`)).status).toBe(409);
    } finally {
      await provider.release(created.providerSessionId);
      await provider.release(other.providerSessionId);
    }
  });

  it('checks every client command with the connect policy, and refuses unknown sessions and wrong keys', async () => {
    const created = await provider.create(gridRequest());
    try {
      const client = await rawClient(created.connectUrl);
      const denied = await client.call('Browser.executeBrowserCommand', { commandId: 'openTabSearch' });
      expect(denied.error).toMatchObject({ code: -32601, message: expect.stringMatching(/not allowed/) });
      const file = await client.call('Page.navigate', { url: 'file:///etc/passwd' });
      expect(file.error?.message).toMatch(/file: URLs/);
      expect((await client.call('Browser.getVersion')).result?.product).toMatch(/Chrome/);
      client.ws.close();

      const url = new URL(created.connectUrl);
      url.searchParams.set('signingKey', 'wrong');
      expect(await handshakeStatus(url.toString())).toBe(401);
      const unknown = created.connectUrl.replace(created.providerSessionId, 'f'.repeat(32));
      expect(await handshakeStatus(unknown)).toBe(404);
    } finally {
      await provider.release(created.providerSessionId);
    }
  });

  it('opens in-process CDP clients (the live view) under the same policy', async () => {
    const created = await provider.create(gridRequest());
    try {
      const answers = new Map<number, (m: CdpBrowserMessage) => void>();
      const client = await provider.capabilities.cdp!.open(
        created.providerSessionId,
        (m) => m.id !== undefined && answers.get(m.id)?.(m),
        () => {},
      );
      expect(client).not.toBeNull();
      const call = (id: number, method: string, params: Record<string, unknown> = {}) =>
        new Promise<CdpBrowserMessage>((resolve) => {
          answers.set(id, resolve);
          client!.send({ id, method, params });
        });
      expect((await call(1, 'Browser.getVersion')).result?.product).toMatch(/Chrome/);
      expect((await call(2, 'Target.exposeDevToolsProtocol', { targetId: 'x' })).error?.code).toBe(-32601);
      expect(
        await provider.capabilities.cdp!.open(
          'f'.repeat(32),
          () => {},
          () => {},
        ),
      ).toBeNull();
    } finally {
      await provider.release(created.providerSessionId);
    }
  });

  it('ends a session at its timeout (TIMED_OUT), deleting it at the Grid', async () => {
    const created = await provider.create(gridRequest({ timeoutSec: 1 }));
    await vi.waitFor(
      async () => expect((await provider.get(created.providerSessionId))?.status).toBe('TIMED_OUT'),
      {
        timeout: 10_000,
      },
    );
    await goneFromGrid(grid.url, created.providerSessionId);
  });

  it('ends a session without keepAlive once its last client is gone (COMPLETED)', async () => {
    const created = await provider.create(gridRequest({ keepAlive: false }));
    const browser = await chromium.connectOverCDP(created.connectUrl);
    await browser.close();
    await vi.waitFor(
      async () => expect((await provider.get(created.providerSessionId))?.status).toBe('COMPLETED'),
      { timeout: DISCONNECT_GRACE_MS + 10_000 },
    );
    await goneFromGrid(grid.url, created.providerSessionId);
  });

  it('ends a session the Grid lost as ERROR', async () => {
    const created = await provider.create(gridRequest());
    // Its browser goes: the provider's own CDP connection closes, or the keep-alive finds it gone.
    void fetch(`${grid.url}/session/${created.providerSessionId}`, { method: 'DELETE' }).catch(() => {});
    await vi.waitFor(
      async () => expect((await provider.get(created.providerSessionId))?.status).toBe('ERROR'),
      {
        timeout: 10_000,
      },
    );
  });

  it('releases a session another instance held (it is deleted at the Grid) and answers null', async () => {
    const created = await provider.create(gridRequest());
    const other = await startGridProvider(grid.url);
    try {
      expect(await other.provider.release(created.providerSessionId)).toBeNull();
      // The holder notices its browser is gone.
      await vi.waitFor(
        async () => expect((await provider.get(created.providerSessionId))?.status).toBe('ERROR'),
        {
          timeout: 10_000,
        },
      );
      await goneFromGrid(grid.url, created.providerSessionId);
      expect(await other.provider.release(created.providerSessionId)).toBeNull();
    } finally {
      await other.close();
    }
  });
});

describe('SeleniumGridProvider on a full Grid (one slot)', () => {
  let grid: SeleniumGrid;

  beforeAll(async () => {
    grid = await startSeleniumGrid({
      topology: 'standalone',
      maxSessionsPerNode: 1,
      sessionRequestTimeoutSec: 4,
    });
  });

  afterAll(() => grid?.close());

  it('answers 429 when the Grid’s queue gives up, and 504 past its own deadline, deleting a session that lands late', async () => {
    const patient = await startGridProvider(grid.url);
    const hasty = await startGridProvider(grid.url, { newSessionTimeoutMs: 1_000 });
    try {
      const first = await patient.provider.create(gridRequest());
      await expect(patient.provider.create(gridRequest())).rejects.toMatchObject({
        code: 'provider_rate_limited',
        retryAfterSec: expect.any(Number),
      });
      await expect(hasty.provider.create(gridRequest())).rejects.toMatchObject({ code: 'provider_timeout' });
      // The slot frees while the hasty request still waits in the Grid's queue: it lands, and is deleted.
      await patient.provider.release(first.providerSessionId);
      await vi.waitFor(
        async () => {
          const ids = await gridSessionIds(grid.url);
          expect(ids).toHaveLength(0);
          expect(hasty.provider.usage.sessions).toBe(0);
        },
        { timeout: 30_000, interval: 250 },
      );
      // The slot is free again.
      const next = await patient.provider.create(gridRequest());
      await patient.provider.release(next.providerSessionId);
    } finally {
      await hasty.close();
      await patient.close();
    }
  });
});
