import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findChromium } from '../packages/adapters/src/browsers/local-chromium/chromium/findChromium.ts';
import { eventually } from './instancesApi.ts';
import { request, signUpUser } from './runsApi.ts';
import { serverForTests } from './serverProcess.ts';

/** What the HAR answer is read as here: the fields the test checks. */
interface HarJson {
  log: {
    version: string;
    creator: { name: string };
    pages: Array<{ id: string; title: string; _tab: number }>;
    entries: Array<{
      pageref?: string;
      _tab: number;
      request: { method: string; url: string; headers: Array<{ name: string; value: string }> };
      response: { status: number; headers: Array<{ name: string; value: string }> };
    }>;
    _ended: boolean;
    _capped: boolean;
  };
}

/** The test's site: a page whose script calls an API with a bearer token and asks for a missing file. */
function site(): Server {
  return createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/page') {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end(
        '<!doctype html><title>har page</title><script>' +
          "fetch('/api/data', { headers: { Authorization: 'Bearer secret-token-123' } })" +
          ".then((r) => r.text()).then(() => fetch('/missing')).then(() => { document.title = 'done'; });" +
          '</script>',
      );
    } else if (path === '/api/data') {
      res.writeHead(200, {
        'Content-Type': 'application/json',
        'Set-Cookie': 'session=cookie-secret; Path=/',
      });
      res.end('{"ok":true}');
    } else if (path === '/other') {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end('<!doctype html><title>other tab</title><p>second tab</p>');
    } else {
      res.writeHead(404).end();
    }
  });
}

const header = (headers: Array<{ name: string; value: string }>, name: string) =>
  headers.find((h) => h.name.toLowerCase() === name)?.value;

/**
 * SPEC §18, network: a local session's requests of every tab come back as HAR 1.2 through the
 * server started as `npm start` does, during the session and after it, with sensitive values
 * redacted unless asked for (and then only for a developer).
 */
describe('a session’s network as HAR', () => {
  let web: Server;
  let siteUrl = '';
  let sitePort = 0;
  beforeAll(async () => {
    web = site();
    await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
    sitePort = (web.address() as AddressInfo).port;
    siteUrl = `http://127.0.0.1:${sitePort}`;
  });
  afterAll(() => new Promise((resolve) => web?.close(resolve)));
  const held = serverForTests('har', () => ({
    LOCAL_WARM_BROWSERS: '0',
    EGRESS_ALLOW: `127.0.0.1:${sitePort}`,
  }));

  it('lists every request of both tabs with their statuses, redacts the token, and keeps it after the end', async () => {
    const user = await signUpUser(held.server.url);
    const created = await user.call<{ id: string; connectUrl: string }>('POST', `${user.base}/sessions`, {});
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const { id } = created.body;
    const har = (query = '') => user.call<HarJson>('GET', `${user.base}/sessions/${id}/har${query}`);
    const browser = await chromium.connectOverCDP(created.body.connectUrl);
    try {
      const context = browser.contexts()[0]!;
      const page = context.pages()[0] ?? (await context.newPage());
      await page.goto(`${siteUrl}/page`);
      await expect.poll(() => page.title()).toBe('done');
      const second = await context.newPage();
      await second.goto(`${siteUrl}/other`);

      // During the session: the capture is written as it arrives, a second at most behind.
      const during = await eventually('the HAR lists the second tab’s page', async () => {
        const answer = await har();
        if (answer.status !== 200)
          throw new Error(`HAR answered ${answer.status}: ${JSON.stringify(answer.body)}`);
        const urls = answer.body.log.entries.map((e) => e.request.url);
        return urls.includes(`${siteUrl}/other`) && urls.includes(`${siteUrl}/missing`) ? answer.body : false;
      });
      expect(during.log.version).toBe('1.2');
      expect(during.log._ended).toBe(false);
    } finally {
      await browser.close().catch(() => {});
    }
    const released = await user.call<{ status: string }>('POST', `${user.base}/sessions/${id}:release`);
    expect(released.body.status).toBe('COMPLETED');

    const after = await eventually('the HAR of the ended session is complete', async () => {
      const answer = await har();
      return answer.body.log._ended ? answer.body : false;
    });
    const entry = (path: string) => after.log.entries.find((e) => e.request.url === `${siteUrl}${path}`);
    expect(entry('/page')?.response.status).toBe(200);
    expect(entry('/api/data')?.response.status).toBe(200);
    expect(entry('/missing')?.response.status).toBe(404);
    expect(entry('/other')?.response.status).toBe(200);
    // Each tab's requests belong to its own page.
    expect(entry('/page')?._tab).toBe(entry('/api/data')?._tab);
    expect(entry('/other')?._tab).not.toBe(entry('/page')?._tab);
    const pageOf = (path: string) => after.log.pages.find((p) => p.id === entry(path)?.pageref);
    expect(pageOf('/other')?._tab).toBe(entry('/other')?._tab);
    expect(new Set(after.log.pages.map((p) => p.id)).size).toBe(after.log.pages.length);
    // Redacted by default: the bearer token and the cookie never appear.
    const api = entry('/api/data')!;
    expect(header(api.request.headers, 'authorization')).toBe('[redacted]');
    expect(header(api.response.headers, 'set-cookie')).toBe('[redacted]');
    expect(JSON.stringify(after)).not.toContain('secret-token-123');
    expect(JSON.stringify(after)).not.toContain('cookie-secret');

    // Asked for, the owner (a developer and more) reads them as sent.
    const sensitive = await har('?sensitive=true');
    expect(sensitive.status).toBe(200);
    const raw = sensitive.body.log.entries.find((e) => e.request.url === `${siteUrl}/api/data`)!;
    expect(header(raw.request.headers, 'authorization')).toBe('Bearer secret-token-123');

    // The Browserbase dialect answers the same document, with a project key.
    const key = await user.call<{ key: string }>('POST', `/v1/projects/${user.projectId}/api-keys`, {
      name: 'har',
    });
    expect(key.status, JSON.stringify(key.body)).toBe(201);
    const dialect = await request<HarJson>(held.server.url, 'GET', `/v1/sessions/${id}/har`, undefined, {
      'X-BB-API-Key': key.body.key,
    });
    expect(dialect.status, JSON.stringify(dialect.body)).toBe(200);
    expect(dialect.body.log.entries.map((e) => e.request.url).sort()).toEqual(
      after.log.entries.map((e) => e.request.url).sort(),
    );

    // A real HAR consumer reads it: Playwright replays a browser's requests from it (routeFromHAR;
    // what is not in it is aborted, so nothing reaches the site), with the statuses and headers as
    // captured, and no body (the capture keeps none).
    const work = await mkdtemp(join(tmpdir(), 'browserdeck-har-'));
    const replayer = await chromium.launch({
      executablePath: (await findChromium())!.path,
      args: ['--no-sandbox'],
    });
    try {
      const harFile = join(work, 'session.har');
      await writeFile(harFile, JSON.stringify(after));
      const context = await replayer.newContext();
      await context.routeFromHAR(harFile, { notFound: 'abort' });
      const page = await context.newPage();
      const api = await page.goto(`${siteUrl}/api/data`);
      expect(api?.status()).toBe(200);
      expect(await api?.headerValue('content-type')).toBe('application/json');
      expect(await api?.text()).toBe('');
      expect((await page.goto(`${siteUrl}/missing`))?.status()).toBe(404);
      await expect(page.goto(`${siteUrl}/never-requested`)).rejects.toThrow();
    } finally {
      await replayer.close();
      await rm(work, { recursive: true, force: true });
    }
  }, 120_000);

  it('answers 404 for an unknown session and 400 for a bad sensitive flag, changing nothing', async () => {
    const user = await signUpUser(held.server.url);
    const unknown = await user.call('GET', `${user.base}/sessions/0190b000-0000-7000-8000-00000000dead/har`);
    expect(unknown.status).toBe(404);
    const bad = await user.call(
      'GET',
      `${user.base}/sessions/0190b000-0000-7000-8000-00000000dead/har?sensitive=maybe`,
    );
    expect(bad.status).toBe(400);
  });
});
