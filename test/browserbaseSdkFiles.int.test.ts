import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Browserbase, { BadRequestError, toFile } from '@browserbasehq/sdk';
import { extensionZip } from '@browserdeck/testing/adapters';
import { chromium } from 'playwright-core';
import { Server as ProxyServer } from 'proxy-chain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { givenProjectApiKey } from './projectApiKey.ts';
import { type ServerProcess, startServerProcess } from './serverProcess.ts';
import { zipEntries } from './zipFiles.ts';

/** A page of a known size: what the proxy bytes must at least count. */
const BIG_PAGE = `<!doctype html><title>big page</title><p>${'x'.repeat(200_000)}</p>`;

const SITE_PAGES: Record<string, { type: string; body: string; attachment?: string }> = {
  '/big': { type: 'text/html', body: BIG_PAGE },
  '/files': {
    type: 'text/html',
    body: `<!doctype html><title>files</title>
      <a id="one" href="/one.txt" download>one</a> <a id="two" href="/two.csv" download>two</a>
      <input id="pick" type="file">
      <script>
        document.getElementById('pick').addEventListener('change', async (event) => {
          document.title = 'read: ' + (await event.target.files[0].text());
        });
      </script>`,
  },
  '/one.txt': { type: 'text/plain', body: 'the first file', attachment: 'one.txt' },
  '/two.csv': { type: 'text/csv', body: 'a,b\n1,2\n', attachment: 'two.csv' },
};

describe('the Browserbase SDK: proxies, downloads, uploads and extensions against npm start', () => {
  let server: ServerProcess;
  let dir: string;
  let bb: Browserbase;
  let given: Awaited<ReturnType<typeof givenProjectApiKey>>;
  let site: Server;
  let siteUrl: string;
  let upstream: ProxyServer;
  let upstreamPort: number;
  const upstreamSaw: Array<{ hostname: string; username: string; password: string }> = [];

  beforeAll(async () => {
    site = createServer((req: IncomingMessage, res) => {
      const page = SITE_PAGES[new URL(req.url ?? '/', 'http://x').pathname];
      if (!page) return res.writeHead(404).end();
      res.writeHead(200, {
        'Content-Type': page.type,
        ...(page.attachment ? { 'Content-Disposition': `attachment; filename="${page.attachment}"` } : {}),
      });
      res.end(page.body);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const sitePort = (site.address() as AddressInfo).port;
    siteUrl = `http://127.0.0.1:${sitePort}`;
    upstream = new ProxyServer({
      host: '127.0.0.1',
      port: 0,
      prepareRequestFunction: ({ hostname, username, password }) => {
        upstreamSaw.push({ hostname, username, password });
        return { requestAuthentication: username !== 'shopper' || password !== 'right-password' };
      },
    });
    await upstream.listen();
    upstreamPort = upstream.port;
    dir = mkdtempSync(join(tmpdir(), 'browserdeck-bb-files-'));
    server = await startServerProcess({
      DATA_DIR: dir,
      LOCAL_MAX_SESSIONS: '2',
      LOCAL_MAX_SESSIONS_PER_OWNER: '2',
      LOCAL_WARM_BROWSERS: '0',
      PROXY_BYTES_FLUSH_SEC: '1',
      // The test site and the test's upstream proxy, each by its port: the service's own port stays refused.
      EGRESS_ALLOW: `127.0.0.1:${sitePort},127.0.0.1:${upstreamPort}`,
    });
    given = await givenProjectApiKey(server, 'bb-files@example.com');
    bb = new Browserbase({ apiKey: given.key, baseURL: server.url, maxRetries: 0 });
  }, 90_000);

  afterAll(async () => {
    await server?.stop();
    await upstream?.close(true);
    await new Promise((resolve) => site?.close(resolve));
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('routes a session through the caller’s authenticated proxy and meters its bytes', async () => {
    const session = await bb.sessions.create({
      projectId: given.projectId,
      keepAlive: true,
      proxies: [
        {
          type: 'external',
          server: `http://127.0.0.1:${upstreamPort}`,
          username: 'shopper',
          password: 'right-password',
        },
      ],
    });
    expect(session.proxyBytes).toBe(0);
    expect(JSON.stringify(session)).not.toContain('right-password');
    const browser = await chromium.connectOverCDP(session.connectUrl);
    try {
      const page = browser.contexts()[0]!.pages()[0] ?? (await browser.contexts()[0]!.newPage());
      await page.goto(`${siteUrl}/big`);
      expect(await page.title()).toBe('big page');
      expect(upstreamSaw).toContainEqual({
        hostname: '127.0.0.1',
        username: 'shopper',
        password: 'right-password',
      });
      await expect
        .poll(async () => (await bb.sessions.retrieve(session.id)).proxyBytes, { timeout: 20_000 })
        .toBeGreaterThanOrEqual(BIG_PAGE.length);
      const usage = await bb.projects.usage(given.projectId);
      expect(usage.proxyBytes).toBeGreaterThanOrEqual(BIG_PAGE.length);
      // EGRESS_ALLOW opened the site's port, not the service's own: a page names the rule.
      const refused = await page.goto(`${server.url}/healthz`);
      expect(refused?.status()).toBe(403);
      expect(await page.textContent('body')).toMatch(/egress policy refused .*\/healthz: .*loopback/i);
    } finally {
      await browser.close();
      await bb.sessions.update(session.id, { status: 'REQUEST_RELEASE', projectId: given.projectId });
    }
  }, 90_000);

  it('fails a wrong proxy password visibly, in the browser and in the session’s logs', async () => {
    const session = await bb.sessions.create({
      projectId: given.projectId,
      keepAlive: true,
      proxies: [
        {
          type: 'external',
          server: `http://127.0.0.1:${upstreamPort}`,
          username: 'shopper',
          password: 'wrong',
        },
      ],
    });
    const browser = await chromium.connectOverCDP(session.connectUrl);
    try {
      const page = browser.contexts()[0]!.pages()[0] ?? (await browser.contexts()[0]!.newPage());
      const answer = await page.goto(`${siteUrl}/big`);
      expect(answer?.status()).toBe(502);
      expect(await page.textContent('body')).toMatch(/127\.0\.0\.1/);
      await expect
        .poll(async () => (await bb.sessions.logs.list(session.id)).map((entry) => entry.method))
        .toContain('Browserdeck.proxyFailed');
      const logs = JSON.stringify(await bb.sessions.logs.list(session.id));
      expect(logs).not.toContain('wrong');
    } finally {
      await browser.close();
      await bb.sessions.update(session.id, { status: 'REQUEST_RELEASE', projectId: given.projectId });
    }
  }, 90_000);

  it('refuses an upstream proxy at a refused address, and a proxy type it cannot honour', async () => {
    const refused = await bb.sessions
      .create({
        projectId: given.projectId,
        proxies: [{ type: 'external', server: 'http://127.0.0.9:3128' }],
      })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(BadRequestError);
    expect((refused as BadRequestError).message).toMatch(/proxies/);
    const browserbaseProxies = await bb.sessions
      .create({ projectId: given.projectId, proxies: true })
      .catch((error: unknown) => error);
    expect(browserbaseProxies).toBeInstanceOf(BadRequestError);
  }, 30_000);

  it('returns a page’s two downloads as a zip, and puts an upload where the file input takes it', async () => {
    const session = await bb.sessions.create({ projectId: given.projectId, keepAlive: true });
    const browser = await chromium.connectOverCDP(session.connectUrl);
    try {
      const page = browser.contexts()[0]!.pages()[0] ?? (await browser.contexts()[0]!.newPage());
      await page.goto(`${siteUrl}/files`);
      for (const link of ['#one', '#two']) {
        const download = page.waitForEvent('download');
        await page.click(link);
        // Only the file's name is read here: saveAs() would look on this machine's disk.
        expect((await download).suggestedFilename()).toMatch(/^(one\.txt|two\.csv)$/);
        await (await download).failure();
      }
      const response = await bb.sessions.downloads.list(session.id);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/application\/zip/);
      const entries = await zipEntries(Buffer.from(await response.arrayBuffer()));
      expect(entries).toEqual(
        expect.objectContaining({ 'one.txt': 'the first file', 'two.csv': 'a,b\n1,2\n' }),
      );

      const uploaded = await bb.sessions.uploads.create(session.id, {
        file: await toFile(Buffer.from('uploaded through the SDK'), 'note.txt'),
      });
      expect(uploaded).toMatchObject({ message: expect.any(String) });
      const path = (uploaded as unknown as { path: string }).path;
      expect(path).toMatch(/note\.txt$/);
      await page.setInputFiles('#pick', path);
      await expect.poll(() => page.title()).toBe('read: uploaded through the SDK');
    } finally {
      await browser.close();
      await bb.sessions.update(session.id, { status: 'REQUEST_RELEASE', projectId: given.projectId });
    }
  }, 90_000);

  it('uploads an extension, loads it into a session’s browser, and deletes it', async () => {
    const zip = await extensionZip({
      'manifest.json': JSON.stringify({
        manifest_version: 3,
        name: 'Marks pages',
        version: '1.0',
        content_scripts: [{ matches: ['<all_urls>'], js: ['mark.js'], run_at: 'document_start' }],
      }),
      'mark.js': "document.documentElement.dataset.marked = 'by-extension';",
    });
    const extension = await bb.extensions.create({ file: await toFile(zip, 'marks.zip') });
    expect(extension).toMatchObject({
      id: expect.any(String),
      projectId: given.projectId,
      fileName: 'marks.zip',
    });
    expect(await bb.extensions.retrieve(extension.id)).toMatchObject({ id: extension.id });

    const session = await bb.sessions.create({
      projectId: given.projectId,
      keepAlive: true,
      browserSettings: { extensionId: extension.id },
    });
    const browser = await chromium.connectOverCDP(session.connectUrl);
    try {
      const page = browser.contexts()[0]!.pages()[0] ?? (await browser.contexts()[0]!.newPage());
      await page.goto(`${siteUrl}/big`);
      await expect
        .poll(() => page.evaluate<string | undefined>('document.documentElement.dataset.marked'))
        .toBe('by-extension');
    } finally {
      await browser.close();
      await bb.sessions.update(session.id, { status: 'REQUEST_RELEASE', projectId: given.projectId });
    }
    await bb.extensions.delete(extension.id);
    await expect(bb.extensions.retrieve(extension.id)).rejects.toMatchObject({ status: 404 });
  }, 120_000);
});
