import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { browserRequest, requireChromium, startLocalProvider } from '@browserdeck/testing/local-chromium';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { LocalChromiumProvider } from '../local-chromium/LocalChromiumProvider.ts';
import { ScreencastHub } from './ScreencastHub.ts';

const ASSETS = fileURLToPath(new URL('../../http/koa/api/live-view/assets/', import.meta.url));
/** The policy the API serves the page with (http-api.md §14), minus the frame ancestors. */
const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' blob: data:; connect-src 'self'; base-uri 'none'; form-action 'none'";
const TYPES: Record<string, string> = { js: 'text/javascript', css: 'text/css' };

/**
 * The page's routes as the API lays them out — `/v1/live/<id>` (the page), `/v1/live/assets/<file>`,
 * and the `/ws` upgrade — without the token check, which is the API's.
 */
async function startPageServer(
  current: () => ScreencastHub,
  refusing: () => boolean,
): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const asset = /^\/v1\/live\/assets\/([A-Za-z]+\.(js|css))$/.exec(path);
    if (asset) {
      res.writeHead(200, { 'content-type': TYPES[asset[2]!]! }).end(await readFile(`${ASSETS}${asset[1]}`));
    } else if (/^\/v1\/live\/[^/]+$/.test(path)) {
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': CSP })
        .end(await readFile(`${ASSETS}live.html`));
    } else res.writeHead(404).end();
  });
  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const match = /^\/v1\/live\/([^/]+)\/ws$/.exec(url.pathname);
    if (!match || url.searchParams.get('token') !== 'good' || refusing()) {
      socket.end('HTTP/1.1 401 Unauthorized\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    current().serveViewer(req, socket, head, {
      providerSessionId: match[1]!,
      pageId: url.searchParams.get('page'),
      readOnly: url.searchParams.get('readOnly') === 'true',
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

const colorPage = (title: string, rgb: string) =>
  `data:text/html,<title>${title}</title><body style="margin:0;background:rgb(${rgb})"></body>`;
const CLICK_PAGE = `data:text/html,<title>idle</title><body style="margin:0">
<input id="i" style="position:fixed;left:0;top:0;width:100%;height:50%;font-size:40px">
<button id="b" style="position:fixed;left:0;top:50%;width:100%;height:50%" onclick="document.title='clicked'">b</button></body>`;

/** The colour at the centre of the page's canvas. */
const canvasCenter = (viewer: Page) =>
  viewer.evaluate(`(() => {
    const canvas = document.getElementById('screen');
    const [r, g, b] = canvas.getContext('2d').getImageData(canvas.width / 2, canvas.height / 2, 1, 1).data;
    return [r, g, b];
  })()`) as Promise<number[]>;
const near = (a: number[], b: number[]) => a.every((v, i) => Math.abs(v - b[i]!) <= 40);

describe('the live view page in a real browser', () => {
  let started: Awaited<ReturnType<typeof startLocalProvider>>;
  let provider: LocalChromiumProvider;
  let hub: ScreencastHub;
  let server: Awaited<ReturnType<typeof startPageServer>>;
  let viewerBrowser: Browser;
  let refusing = false;
  const cleanups: Array<() => Promise<unknown>> = [];

  beforeAll(async () => {
    started = await startLocalProvider({ maxSessions: 3, maxSessionsPerOwner: 3 });
    provider = started.provider;
    hub = new ScreencastHub({ cdp: provider.capabilities.cdp! });
    server = await startPageServer(
      () => hub,
      () => refusing,
    );
    viewerBrowser = await chromium.launch({ executablePath: await requireChromium() });
  });

  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
  });

  afterAll(async () => {
    await hub?.close();
    await server?.close();
    await viewerBrowser?.close();
    await started?.close();
  });

  async function drivenSession() {
    const session = await provider.create(browserRequest());
    const browser = await chromium.connectOverCDP(session.connectUrl);
    cleanups.push(async () => {
      await browser.close();
      await provider.release(session.providerSessionId);
    });
    return { id: session.providerSessionId, browser, page: browser.contexts()[0]!.pages()[0]! };
  }

  /** Opens the page at 1280×800 (or `size`), recording console errors and CSP violations. */
  async function openViewer(id: string, query: string, size = { width: 1280, height: 800 }) {
    const page = await viewerBrowser.newPage({ viewport: size });
    cleanups.push(() => page.close());
    const problems: string[] = [];
    page.on('console', (m) => {
      // A full Chromium asks for /favicon.ico on its own (the headless shell does not): not the page's doing.
      if (m.type() === 'error' && !m.location().url.endsWith('/favicon.ico')) problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(`${server.url}/v1/live/${id}?token=good${query}`);
    return { page, problems };
  }

  it('shows the tab live, scaled to fit, with its tabs; switches tabs; says when the session ended', async () => {
    const { id, browser, page } = await drivenSession();
    await page.goto(colorPage('Red page', '255,0,0'));
    const { page: viewer, problems } = await openViewer(id, '');
    await expect
      .poll(() => viewer.getByRole('status').textContent(), { timeout: 15_000 })
      .toBe('Live: Red page');
    // Opened while watched: listed after the first (Chrome lists tabs open before in no set order).
    const other = await browser.contexts()[0]!.newPage();
    await other.goto(colorPage('Blue page', '0,0,255'));
    expect(near(await canvasCenter(viewer), [255, 0, 0])).toBe(true);
    const view = viewer.getByRole('application', { name: /Live view of the browser/ });
    const box = (await view.boundingBox())!;
    // 800×600 frames in a 1280×800 window under a tab bar and a status line: scaled up, 4:3 kept.
    expect(Math.abs(box.width / box.height - 4 / 3)).toBeLessThan(0.02);
    expect(box.height).toBeGreaterThan(600);
    await expect
      .poll(() => viewer.getByRole('tab').allTextContents(), { timeout: 10_000 })
      .toEqual(['Red page', 'Blue page']);
    expect(await viewer.getByRole('tab', { name: 'Red page' }).getAttribute('aria-selected')).toBe('true');

    await viewer.getByRole('tab', { name: 'Blue page' }).click();
    await expect
      .poll(() => canvasCenter(viewer).then((c) => near(c, [0, 0, 255])), { timeout: 15_000 })
      .toBe(true);
    expect(await viewer.getByRole('tab', { name: 'Blue page' }).getAttribute('aria-selected')).toBe('true');
    await expect.poll(() => viewer.getByRole('status').textContent()).toBe('Live: Blue page');

    await provider.release(id);
    await expect
      .poll(() => viewer.getByRole('status').textContent(), { timeout: 15_000 })
      .toBe('The session has ended.');
    expect(problems).toEqual([]);
  });

  it('forwards clicks and typing from the view, and nothing from a read-only one', async () => {
    const { id, page } = await drivenSession();
    await page.goto(CLICK_PAGE);
    const { page: watcher, problems: watcherProblems } = await openViewer(
      id,
      '&readOnly=true&fullscreen=true',
    );
    await expect
      .poll(() => watcher.getByRole('status').textContent(), { timeout: 15_000 })
      .toBe('Live, view only: idle');
    // Full screen: no tab bar. Read-only: an image, not focusable.
    expect(await watcher.getByRole('tablist').isVisible()).toBe(false);
    const image = watcher.getByRole('img', { name: 'Live view of the browser' });
    expect(await image.getAttribute('tabindex')).toBeNull();
    const imageBox = (await image.boundingBox())!;
    await watcher.mouse.click(imageBox.x + imageBox.width / 2, imageBox.y + imageBox.height * 0.75);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await page.title()).toBe('idle');

    // A phone-sized interactive viewer.
    const { page: viewer, problems } = await openViewer(id, '', { width: 390, height: 740 });
    await expect.poll(() => viewer.getByRole('status').textContent(), { timeout: 15_000 }).toBe('Live: idle');
    const view = viewer.getByRole('application', { name: /Live view of the browser/ });
    const box = (await view.boundingBox())!;
    expect(box.width).toBeLessThanOrEqual(390);
    await viewer.mouse.click(box.x + box.width / 2, box.y + box.height * 0.75);
    await expect.poll(() => page.title(), { timeout: 10_000 }).toBe('clicked');
    await viewer.mouse.click(box.x + box.width / 2, box.y + box.height * 0.25);
    await expect.poll(() => page.evaluate('document.activeElement.id'), { timeout: 10_000 }).toBe('i');
    await viewer.keyboard.type('Hi!');
    await viewer.keyboard.press('Backspace');
    await expect.poll(() => page.inputValue('#i'), { timeout: 10_000 }).toBe('Hi');
    // Ctrl+V pastes the viewer's clipboard into the remote page as text.
    await viewer.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    await viewer.evaluate(`navigator.clipboard.writeText(' there')`);
    await view.focus();
    await viewer.keyboard.press('Control+V');
    await expect.poll(() => page.inputValue('#i'), { timeout: 10_000 }).toBe('Hi there');
    // Tab is not forwarded: it leaves the view (no keyboard trap).
    await view.focus();
    await viewer.keyboard.press('Tab');
    expect(await viewer.evaluate('document.activeElement.id')).not.toBe('screen');
    expect(await page.inputValue('#i')).toBe('Hi there');
    expect([...problems, ...watcherProblems]).toEqual([]);
  });

  it('reconnects once when its socket drops, and says so when that fails too', async () => {
    const { id } = await drivenSession();
    const { page: viewer } = await openViewer(id, '');
    const status = () => viewer.getByRole('status').textContent();
    await expect.poll(status, { timeout: 15_000 }).toMatch(/^Live/);
    // The server drops every viewer (a restart of the hub): the page comes back on its own.
    await hub.close();
    hub = new ScreencastHub({ cdp: provider.capabilities.cdp! });
    await expect.poll(status, { timeout: 15_000 }).toBe('Connection lost. Reconnecting…');
    await expect.poll(status, { timeout: 15_000 }).toMatch(/^Live/);
    // Dropped again while its link is refused (expired, say): one attempt, then a clear message.
    refusing = true;
    await hub.close();
    hub = new ScreencastHub({ cdp: provider.capabilities.cdp! });
    await expect
      .poll(status, { timeout: 15_000 })
      .toBe(
        'The live view is not available: the session may have ended or this link expired. Open the live view again from the session.',
      );
    expect(await viewer.getByRole('status').getAttribute('class')).toBe('status error');
    refusing = false;
  });
});
