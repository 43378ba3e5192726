import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { DomainError, type SessionProxy, SystemClock } from '@browserdeck/domain';
import { browserRequest, makeScratchDir, requireChromium } from '@browserdeck/testing/local-chromium';
import { type Browser, chromium, type Page } from 'playwright-core';
import { Server } from 'proxy-chain';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { refuseUpgrade } from '../../http/koa/index.ts';
import { pinnedLookup } from '../egress/pinnedLookup.ts';
import { LocalChromiumProvider } from './LocalChromiumProvider.ts';

// Real Chromium, loopback only: a page server, an authenticated upstream proxy (proxy-chain) and a
// stand-in for the service (the provider's connect endpoint, plus /healthz). EGRESS_ALLOW opens the
// page server's and the upstream's ports, not the service's.

const BIG_BYTES = 200_000;

async function listen(server: http.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

async function close(server: http.Server): Promise<void> {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

describe('a local session’s egress: readable refusals, ports, upstream proxies, bytes, its own endpoint (real Chromium)', () => {
  let scratch: Awaited<ReturnType<typeof makeScratchDir>>;
  let provider: LocalChromiumProvider;
  let pages: http.Server;
  let pagePort: number;
  let service: http.Server;
  let servicePort: number;
  /** What reached the service other than connects the provider served. */
  const serviceHits: string[] = [];
  let upstream: Server;
  const upstreamSeen: string[] = [];
  const browsers: Browser[] = [];

  beforeAll(async () => {
    await requireChromium();
    scratch = await makeScratchDir();
    pages = http.createServer((req, res) => {
      if (req.url === '/big') res.writeHead(200, { 'content-type': 'text/plain' }).end('b'.repeat(BIG_BYTES));
      else
        res.writeHead(200, { 'content-type': 'text/html' }).end('<title>site</title><p id="p">the site</p>');
    });
    pagePort = await listen(pages);
    service = http.createServer((req, res) => {
      serviceHits.push(`${req.method} ${req.url}`);
      res.end('ok');
    });
    service.on('upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
      const outcome = provider.handleUpgrade(req, socket, head);
      if (outcome === true) return;
      serviceHits.push(`upgrade ${req.url}`);
      if (outcome === false) socket.destroy();
      else refuseUpgrade(req, socket, outcome.code, outcome.detail);
    });
    servicePort = await listen(service);
    upstream = new Server({
      host: '127.0.0.1',
      port: 0,
      prepareRequestFunction: ({ username, password, hostname, port }) => {
        upstreamSeen.push(`${username}:${password}@${hostname}:${port}`);
        // The upstream resolves names in its own network: here, *.test is the page server's host.
        return {
          requestAuthentication: username !== 'deck-user' || password !== 'deck-pass',
          dnsLookup: pinnedLookup([{ address: '127.0.0.1', family: 4 }]),
        };
      },
    });
    await upstream.listen();
    provider = new LocalChromiumProvider({
      publicUrl: `http://127.0.0.1:${servicePort}`,
      dataDir: scratch.dir,
      tempDir: scratch.dir,
      maxSessions: 3,
      maxSessionsPerOwner: 3,
      // A warm browser exists before its session: its session's settings are set as it takes it.
      warmBrowsers: 1,
      egress: { allow: [`127.0.0.1:${pagePort}`, `127.0.0.1:${upstream.port}`] },
      clock: new SystemClock(),
    });
    await provider.start();
  });

  afterEach(async () => {
    for (const browser of browsers.splice(0)) await browser.close().catch(() => {});
    serviceHits.length = 0;
    upstreamSeen.length = 0;
  });

  afterAll(async () => {
    await provider?.close();
    await upstream?.close(true);
    for (const server of [pages, service]) if (server) await close(server);
    await scratch?.remove();
  });

  const open = async (proxies: SessionProxy[] | null = null) => {
    const session = await provider.create(browserRequest({ proxies }));
    const browser = await chromium.connectOverCDP(session.connectUrl);
    browsers.push(browser);
    const page = await browser.contexts()[0]!.newPage();
    return { session, page, id: session.providerSessionId };
  };

  const upstreamProxy = (password: string): SessionProxy => ({
    type: 'external',
    server: `http://127.0.0.1:${upstream.port}`,
    username: 'deck-user',
    password,
    domainPattern: '.*\\.test',
  });

  /** Opens a WebSocket from the page: `open` or `error`. */
  const webSocketFrom = (page: Page, url: string) =>
    page.evaluate(
      (target) =>
        new Promise<string>((resolve) => {
          const socket = new WebSocket(target);
          socket.onopen = () => {
            socket.close();
            resolve('open');
          };
          socket.onerror = () => resolve('error');
        }),
      url,
    );

  it("shows a 403 page naming the rule; a port-scoped EGRESS_ALLOW opens the site's port, not the service's", async () => {
    const { page, id } = await open();
    const site = await page.goto(`http://127.0.0.1:${pagePort}/`);
    expect(site?.status()).toBe(200);
    expect(await page.textContent('#p')).toBe('the site');

    const url = `http://127.0.0.1:${servicePort}/healthz`;
    const refused = await page.goto(url);
    expect(refused?.status()).toBe(403);
    expect(await refused?.headerValue('content-type')).toBe('text/html; charset=utf-8');
    expect(await page.textContent('p')).toBe(
      `Browserdeck egress policy refused ${url}: loopback (127.0.0.0/8); EGRESS_ALLOW has 127.0.0.1:${pagePort}, not port ${servicePort}. See EGRESS_ALLOW.`,
    );
    // https (CONNECT) shows Chromium's own error; the reason is in the logs.
    await expect(page.goto(`https://127.0.0.2:${pagePort}/`)).rejects.toThrow(/ERR_TUNNEL_CONNECTION_FAILED/);
    // TLS to the service's port reaches only the own-endpoint tunnel, which reads no HTTP in it.
    await expect(page.goto(`https://127.0.0.1:${servicePort}/`)).rejects.toThrow(/net::ERR_/);
    expect(serviceHits).toEqual([]);
    const refusals = (await provider.logs(id))
      .filter((l) => l.method === 'Browserdeck.egressRefused')
      .map((l) => l.request?.params as Record<string, unknown>);
    // By content, not position: a full Chromium also asks for /favicon.ico and may retry.
    expect(refusals).toContainEqual(
      expect.objectContaining({
        host: '127.0.0.1',
        port: servicePort,
        reason: expect.stringMatching(/^loopback .*not port/),
      }),
    );
    expect(refusals).toContainEqual(
      expect.objectContaining({ host: '127.0.0.2', port: pagePort, reason: 'loopback (127.0.0.0/8)' }),
    );
    // Chromium may try TLS more than once.
    const tls = refusals.filter((r) => String(r.reason).includes('not plain HTTP'));
    expect(tls.length).toBeGreaterThan(0);
    for (const attempt of tls) expect(attempt).toMatchObject({ port: servicePort });
    for (const refusal of refusals) expect([servicePort, pagePort]).toContain(refusal.port as number);
  });

  it("lets a page in the session open a WebSocket to the session's own connect endpoint, and nothing else of the service", async () => {
    const { session, page } = await open();
    const other = await provider.create(browserRequest());
    await page.goto(`http://127.0.0.1:${pagePort}/`);

    expect(await webSocketFrom(page, session.connectUrl)).toBe('open');
    expect(await webSocketFrom(page, other.connectUrl)).toBe('error');
    expect(await webSocketFrom(page, `ws://127.0.0.1:${servicePort}/elsewhere`)).toBe('error');
    const healthz = await page.evaluate(
      (url) =>
        fetch(url).then(
          (r) => `status ${r.status}`,
          (e: Error) => `failed ${e.message}`,
        ),
      `http://127.0.0.1:${servicePort}/healthz`,
    );
    expect(healthz).toMatch(/^failed|^status 403/);
    // The other session's browser cannot open this session's endpoint either.
    const otherBrowser = await chromium.connectOverCDP(other.connectUrl);
    browsers.push(otherBrowser);
    const otherPage = await otherBrowser.contexts()[0]!.newPage();
    await otherPage.goto(`http://127.0.0.1:${pagePort}/`);
    expect(await webSocketFrom(otherPage, session.connectUrl)).toBe('error');
    expect(await webSocketFrom(otherPage, other.connectUrl)).toBe('open');
    expect(serviceHits).toEqual([]);
    await provider.release(other.providerSessionId);
  });

  it('goes through an authenticated upstream for the hosts its pattern names, and meters the bytes', async () => {
    const { page, id } = await open([upstreamProxy('deck-pass')]);
    provider.capabilities.proxyMetering!.take();
    const site = await page.goto(`http://site.test:${pagePort}/`);
    expect(site?.status()).toBe(200);
    expect(await page.textContent('#p')).toBe('the site');
    expect(upstreamSeen).toContain(`deck-user:deck-pass@site.test:${pagePort}`);
    // Direct, through the egress policy alone: the page server's port is allowed.
    await page.goto(`http://127.0.0.1:${pagePort}/`);
    expect(upstreamSeen.every((seen) => seen.includes('@site.test:'))).toBe(true);

    provider.capabilities.proxyMetering!.take();
    await page.goto(`http://site.test:${pagePort}/big`);
    const metered = provider.capabilities.proxyMetering!.take().find((d) => d.providerSessionId === id);
    expect(metered?.bytes).toBeGreaterThanOrEqual(BIG_BYTES);

    await page.goto(`http://site.test:${pagePort}/big`);
    await provider.release(id);
    // The ended session's last bytes are reported once.
    const final = provider.capabilities.proxyMetering!.take().find((d) => d.providerSessionId === id);
    expect(final?.bytes).toBeGreaterThanOrEqual(BIG_BYTES);
    expect(
      provider.capabilities.proxyMetering!.take().find((d) => d.providerSessionId === id),
    ).toBeUndefined();
  });

  it('shows a wrong password in the browser and in the logs, never the password itself', async () => {
    const { page, id } = await open([upstreamProxy('not-the-password')]);
    const failed = await page.goto(`http://site.test:${pagePort}/`);
    expect(failed?.status()).toBe(502);
    expect(await page.textContent('p')).toContain(
      `through the upstream proxy http://127.0.0.1:${upstream.port}: the upstream proxy answered 407 Proxy Authentication Required`,
    );
    await expect(page.goto(`https://site.test:${pagePort}/`)).rejects.toThrow(/ERR_TUNNEL_CONNECTION_FAILED/);
    const logs = await provider.logs(id);
    const failures = logs.filter((l) => l.method === 'Browserdeck.proxyFailed').map((l) => l.request?.params);
    // The plain-HTTP load and the CONNECT at least (a full Chromium also asks for /favicon.ico).
    expect(failures.length).toBeGreaterThanOrEqual(2);
    for (const failure of failures)
      expect(failure).toEqual({
        upstream: `http://127.0.0.1:${upstream.port}`,
        host: 'site.test',
        port: pagePort,
        reason: expect.stringContaining('407'),
      });
    expect(JSON.stringify(logs)).not.toContain('not-the-password');
  });

  it('refuses at create an upstream the egress policy refuses, and the provider proxy type', async () => {
    const running = provider.usage.sessions;
    const refusal = async (proxies: SessionProxy[]) =>
      provider.create(browserRequest({ proxies })).then(
        () => null,
        (error: unknown) => error as DomainError,
      );
    const loopback = await refusal([
      { type: 'external', server: `http://127.0.0.1:${servicePort}`, password: 's3cret' },
    ]);
    expect(loopback).toBeInstanceOf(DomainError);
    expect(loopback).toMatchObject({ code: 'validation_failed', errors: [{ path: 'proxies.0.server' }] });
    expect(loopback?.message).toContain('refused by the egress policy: loopback (127.0.0.0/8)');
    expect(loopback?.message).not.toContain('s3cret');
    // By name too (resolved on this machine): the private ranges are the classifier's unit tests.
    expect(await refusal([{ type: 'external', server: 'http://localhost:8080' }])).toMatchObject({
      code: 'validation_failed',
      message: expect.stringContaining('loopback'),
    });
    expect(await refusal([{ type: 'browserbase' }])).toMatchObject({ code: 'unsupported_option' });
    expect(provider.usage.sessions).toBe(running);
  });
});
