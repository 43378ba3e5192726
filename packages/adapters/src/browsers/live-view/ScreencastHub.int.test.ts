import type { LiveViewerClient } from '@browserdeck/testing/live-view';
import {
  frameDecoder,
  frameShowing,
  type Rgb,
  recordingCdp,
  startViewerServer,
} from '@browserdeck/testing/live-view';
import {
  browserRequest,
  eventually,
  requireChromium,
  startLocalProvider,
} from '@browserdeck/testing/local-chromium';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { LocalChromiumProvider } from '../local-chromium/LocalChromiumProvider.ts';
import { ScreencastHub } from './ScreencastHub.ts';

const RED: Rgb = [255, 0, 0];
const BLUE: Rgb = [0, 0, 255];
const colorPage = (rgb: Rgb) =>
  `data:text/html,<title>${rgb.join('-')}</title><body style="margin:0;background:rgb(${rgb.join(',')})"></body>`;
/** An input over the top half, a button over the bottom half that retitles the page when clicked. */
const INPUT_PAGE = `data:text/html,<title>idle</title><body style="margin:0">
<input id="i" style="position:fixed;left:0;top:0;width:100%;height:50%;font-size:40px">
<button id="b" style="position:fixed;left:0;top:50%;width:100%;height:50%" onclick="document.title='clicked'">b</button>
<div style="height:5000px"></div></body>`;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('ScreencastHub over the local provider (real Chromium)', () => {
  let started: Awaited<ReturnType<typeof startLocalProvider>>;
  let provider: LocalChromiumProvider;
  let recorded: ReturnType<typeof recordingCdp>;
  let hub: ScreencastHub;
  let server: Awaited<ReturnType<typeof startViewerServer>>;
  let decoderBrowser: Browser;
  let decode: Awaited<ReturnType<typeof frameDecoder>>;
  const cleanups: Array<() => Promise<unknown>> = [];

  beforeAll(async () => {
    started = await startLocalProvider({ maxSessions: 3, maxSessionsPerOwner: 3 });
    provider = started.provider;
    recorded = recordingCdp(provider.capabilities.cdp!);
    hub = new ScreencastHub({ cdp: recorded.cdp });
    server = await startViewerServer(hub);
    // A browser of the test's own decodes frames, so the watched one shows only what a test put there.
    decoderBrowser = await chromium.launch({ executablePath: await requireChromium() });
    decode = await frameDecoder(decoderBrowser);
  });

  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
  });

  afterAll(async () => {
    await hub?.close();
    await server?.close();
    await decoderBrowser?.close();
    await started?.close();
  });

  /** A running session with a Playwright driving client on its first page. */
  async function drivenSession(): Promise<{ id: string; browser: Browser; page: Page }> {
    const session = await provider.create(browserRequest());
    const browser = await chromium.connectOverCDP(session.connectUrl);
    cleanups.push(async () => {
      await browser.close();
      await provider.release(session.providerSessionId);
    });
    return { id: session.providerSessionId, browser, page: browser.contexts()[0]!.pages()[0]! };
  }

  async function viewer(id: string, query: Record<string, string> = {}): Promise<LiveViewerClient> {
    const client = await server.viewer(id, query);
    cleanups.push(() => client.close());
    await client.waitFor(() => client.pages, 15_000, 'the tab list');
    return client;
  }

  it('shows the page the driving client changes, frame after frame (each one acknowledged)', async () => {
    const { id, page } = await drivenSession();
    const acksBefore = recorded.count('Page.screencastFrameAck');
    const watcher = await viewer(id);
    expect(watcher.pages?.pages).toHaveLength(1);
    await page.goto(colorPage(RED));
    await frameShowing(watcher, decode, RED);
    // Chrome sends only a few frames it has no ack for: ten changes seen means every frame was acked.
    const colors: Rgb[] = [];
    for (let i = 0; i < 10; i++) colors.push(i % 2 === 0 ? [0, 25 * i, 255] : [255, 25 * i, 0]);
    for (const color of colors) {
      const after = watcher.frames.length;
      await page.evaluate(`document.body.style.background = 'rgb(${color.join(',')})'`);
      await frameShowing(watcher, decode, color, { after });
    }
    const frame = watcher.frames.at(-1)!;
    expect(frame.jpeg.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    expect(frame.header).toMatchObject({
      deviceWidth: 800,
      deviceHeight: 600,
      offsetTop: 0,
      pageScaleFactor: 1,
    });
    expect(frame.header.pageId).toBe(watcher.pages?.current);
    // Every frame is acknowledged, paced (at most one ack per 50 ms) and so a little later.
    await eventually(
      () => recorded.count('Page.screencastFrameAck') - acksBefore === watcher.frames.length,
      5_000,
    );
    expect(watcher.frames.length).toBeGreaterThanOrEqual(11);
  });

  it('shares one screencast between two viewers and stops it when the last one leaves', async () => {
    const { id, page } = await drivenSession();
    await page.goto(colorPage(BLUE));
    const starts = recorded.count('Page.startScreencast');
    const stops = recorded.count('Page.stopScreencast');
    const opened = recorded.connections.opened;
    const first = await viewer(id);
    await frameShowing(first, decode, BLUE);
    const second = await viewer(id);
    // The page is still: the second viewer is given the latest frame at once.
    await frameShowing(second, decode, BLUE);
    expect(recorded.count('Page.startScreencast') - starts).toBe(1);
    expect(recorded.connections.opened - opened).toBe(1);

    const firstFrames = first.frames.length;
    const secondFrames = second.frames.length;
    await page.evaluate(`document.body.style.background = 'rgb(255,0,0)'`);
    await frameShowing(first, decode, RED, { after: firstFrames });
    await frameShowing(second, decode, RED, { after: secondFrames });

    await first.close();
    await pause(300);
    expect(recorded.count('Page.stopScreencast') - stops).toBe(0);
    await second.close();
    await eventually(() => recorded.count('Page.stopScreencast') - stops === 1, 5_000);
    const stopped = recorded.sent.filter((c) => c.method === 'Page.stopScreencast').at(-1)!;
    expect(recorded.sent.at(-1)).toMatchObject({
      method: 'Target.detachFromTarget',
      params: { sessionId: stopped.sessionId },
    });
    await eventually(() => recorded.connections.open === 0, 5_000);

    // Watched again: a new screencast on a new connection.
    const third = await viewer(id);
    await frameShowing(third, decode, RED);
    expect(recorded.count('Page.startScreencast') - starts).toBe(2);
    expect(recorded.connections.opened - opened).toBe(2);
  });

  it('switches tabs on select, and pushes the tab list as tabs open', async () => {
    const { id, browser, page } = await drivenSession();
    await page.goto(colorPage(RED));
    const watcher = await viewer(id);
    const firstId = watcher.pages!.current!;
    await frameShowing(watcher, decode, RED, { pageId: firstId });

    const other = await browser.contexts()[0]!.newPage();
    await other.goto(colorPage(BLUE));
    const list = await watcher.waitFor(
      () =>
        watcher.pages!.pages.length === 2 &&
        watcher.pages!.pages.some((p) => p.title === '0-0-255') &&
        watcher.pages,
      15_000,
      'the new tab with its title',
    );
    expect(list.current).toBe(firstId);
    const otherId = list.pages.find((p) => p.id !== firstId)!.id;
    expect(list.pages.find((p) => p.id === otherId)).toEqual({
      id: otherId,
      url: colorPage(BLUE),
      title: '0-0-255',
      faviconUrl: '',
    });
    expect(await hub.pages(id)).toEqual(list.pages);

    const after = watcher.frames.length;
    watcher.send({ type: 'select', pageId: otherId });
    await frameShowing(watcher, decode, BLUE, { after, pageId: otherId });
    await watcher.waitFor(() => watcher.pages?.current === otherId, 5_000, 'the new current tab');
    // The tab left has no viewer: its screencast is stopped.
    await eventually(() => recorded.count('Page.stopScreencast') > 0, 5_000);

    // A viewer may ask for a tab up front (the page's `page` query).
    const direct = await viewer(id, { page: otherId });
    expect(direct.pages?.current).toBe(otherId);
    await frameShowing(direct, decode, BLUE, { pageId: otherId });
  });

  it("forwards a viewer's mouse, keyboard and wheel to the page; a read-only viewer's are dropped", async () => {
    const { id, page } = await drivenSession();
    await page.goto(INPUT_PAGE);
    const inputs = () => recorded.sent.filter((c) => c.method.startsWith('Input.')).length;
    const inputsBefore = inputs();
    const readOnly = await viewer(id, { readOnly: 'true' });
    await readOnly.nextFrame(0);
    const click = (v: LiveViewerClient, x: number, y: number) => {
      v.send({ type: 'mouse', action: 'move', x, y });
      v.send({ type: 'mouse', action: 'down', x, y, button: 'left', buttons: 1, clickCount: 1 });
      v.send({ type: 'mouse', action: 'up', x, y, button: 'left', buttons: 0, clickCount: 1 });
    };
    click(readOnly, 0.5, 0.75);
    readOnly.send({ type: 'wheel', x: 0.5, y: 0.5, deltaX: 0, deltaY: 400 });
    await pause(750);
    expect(await page.title()).toBe('idle');
    expect(await page.evaluate('scrollY')).toBe(0);
    expect(inputs() - inputsBefore).toBe(0);

    const driver = await viewer(id);
    await driver.nextFrame(0);
    click(driver, 0.5, 0.75);
    await expect.poll(() => page.title(), { timeout: 10_000 }).toBe('clicked');

    click(driver, 0.5, 0.25);
    await expect.poll(() => page.evaluate('document.activeElement.id'), { timeout: 10_000 }).toBe('i');
    for (const [key, code, keyCode] of [
      ['H', 'KeyH', 72],
      ['i', 'KeyI', 73],
    ] as const) {
      driver.send({
        type: 'key',
        action: 'down',
        key,
        code,
        text: key,
        keyCode,
        modifiers: key === 'H' ? 8 : 0,
      });
      driver.send({ type: 'key', action: 'up', key, code, keyCode });
    }
    driver.send({ type: 'key', action: 'down', key: 'Backspace', code: 'Backspace', keyCode: 8 });
    driver.send({ type: 'key', action: 'up', key: 'Backspace', code: 'Backspace', keyCode: 8 });
    driver.send({ type: 'text', text: 'ey' });
    await expect.poll(() => page.inputValue('#i'), { timeout: 10_000 }).toBe('Hey');

    driver.send({ type: 'wheel', x: 0.5, y: 0.9, deltaX: 0, deltaY: 400 });
    await expect.poll(() => page.evaluate('scrollY'), { timeout: 10_000 }).toBeGreaterThan(0);
    // Read-only is per viewer: the other one's input still goes nowhere.
    click(readOnly, 0.5, 0.25);
    await pause(300);
    // Two clicks of three events, six key events, one text, one wheel: all the driver's, none else.
    expect(inputs() - inputsBefore).toBe(14);
  });

  it('closes a viewer that sends something other than its messages (1008)', async () => {
    const { id } = await drivenSession();
    const bad = await viewer(id);
    bad.send({ type: 'mouse', action: 'down', x: 2, y: 0.5 });
    await bad.waitFor(() => bad.closed, 5_000, 'its close');
    expect(bad.closed).toEqual({ code: 1008, reason: 'Not a live view message.' });
    const method = await viewer(id);
    method.send({ type: 'cdp', method: 'Runtime.evaluate', params: { expression: '1' } });
    await method.waitFor(() => method.closed, 5_000, 'its close');
    expect(method.closed?.code).toBe(1008);
  });

  it('tells viewers the session ended and closes them (1001) when it is released', async () => {
    const session = await provider.create(browserRequest());
    const watcher = await viewer(session.providerSessionId);
    await watcher.nextFrame(0);
    await provider.release(session.providerSessionId);
    await watcher.waitFor(() => watcher.closed, 10_000, 'its close');
    expect(watcher.messages.at(-1)).toEqual({ type: 'ended' });
    expect(watcher.closed?.code).toBe(1001);
    // A viewer of a session that no longer runs here is told so at once.
    const late = await server.viewer(session.providerSessionId);
    await late.waitFor(() => late.closed, 10_000, 'its close');
    expect(late.messages).toEqual([{ type: 'ended' }]);
    expect(late.closed?.code).toBe(1001);
    expect(await hub.pages(session.providerSessionId)).toBeNull();
  });
});
