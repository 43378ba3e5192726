import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { apiSignUp } from './consoleApi.ts';
import { type ConsoleBrowser, openConsoleBrowser } from './consoleBrowser.ts';
import {
  type ConsoleServer,
  chartCanvas,
  createProject,
  frameOf,
  liveViewFrame,
  nearColour,
  newCredentials,
  openProject,
  openProjectTab,
  projectCard,
  screenColour,
  sessionRow,
  showInSession,
  shownConnectUrl,
  signIn,
  signUp,
  startConsoleServer,
  startSession,
} from './consoleFlows.ts';

/** The colour the driven page shows, and what the live view's canvas must show of it. */
const PINK: [number, number, number] = [255, 0, 170];
/** The "Sessions created" chart's bar colour (#1d4ed8). */
const BAR_BLUE: [number, number, number] = [29, 78, 216];

let server: ConsoleServer;
const browsers: ConsoleBrowser[] = [];
/** A site the driven page loads an image from, so the session's network has a request to list. */
let site: Server;
let siteUrl = '';

beforeAll(async () => {
  site = createServer((req, res) => {
    res.writeHead(req.url === '/pixel.svg' ? 200 : 404, { 'Content-Type': 'image/svg+xml' });
    res.end('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>');
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  const port = (site.address() as AddressInfo).port;
  siteUrl = `http://127.0.0.1:${port}`;
  server = await startConsoleServer({ EGRESS_ALLOW: `127.0.0.1:${port}` });
});

afterEach(async () => {
  for (const browser of browsers.splice(0)) await browser.close();
});

afterAll(async () => {
  await server?.stop();
  await new Promise((resolve) => site?.close(resolve));
});

async function browserAt(viewport?: { width: number; height: number }): Promise<ConsoleBrowser> {
  const opened = await openConsoleBrowser(viewport);
  browsers.push(opened);
  return opened;
}

/** Waits until the element is visible; fails the test if it does not become so in 10 s. */
const shown = (locator: Locator, timeout = 10_000) => locator.waitFor({ state: 'visible', timeout });

/** Whether the whole element is inside the page's viewport. */
async function inViewport(locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox();
  const viewport = locator.page().viewportSize();
  if (!box || !viewport) return false;
  return (
    box.x >= 0 && box.y >= 0 && box.x + box.width <= viewport.width && box.y + box.height <= viewport.height
  );
}

/** The first line of the focused element's ARIA snapshot: its role and accessible name. */
async function focused(page: Page): Promise<string> {
  if ((await page.locator(':focus').count()) === 0) return '(nothing)';
  const snapshot = await page.locator(':focus').ariaSnapshot();
  return snapshot.split('\n')[0]!.replace(/^- /, '').replace(/:$/, '');
}

/** The little of a form field the page-side check uses (the repository's TypeScript has no DOM library). */
interface FieldLike {
  labels: ArrayLike<{ textContent: string | null }> | null;
  getAttribute(name: string): string | null;
  outerHTML: string;
  ownerDocument: { getElementById(id: string): { textContent: string | null } | null };
}

/** Roles that a person operates, in an ARIA snapshot line with no quoted name after them. */
const UNNAMED_CONTROL =
  /^\s*- (textbox|combobox|button|checkbox|spinbutton|searchbox|link)(?: \[[^\]]*\])*(?::.*)?$/;

async function expectAccessibleBasics(page: Page, expectedControls: string[]) {
  await shown(page.getByRole('banner'));
  await shown(page.getByRole('navigation', { name: 'Main' }));
  await shown(page.getByRole('main'));
  await expect.poll(() => page.getByRole('heading', { level: 1 }).count()).toBe(1);
  const snapshot = await page.locator('body').ariaSnapshot();
  expect(snapshot.split('\n').filter((line) => UNNAMED_CONTROL.test(line))).toEqual([]);
  for (const control of expectedControls) expect(snapshot).toContain(control);
  // Every visible field is labelled: by a <label>, aria-label or aria-labelledby.
  const unlabelled = await page
    .locator('input:not([type=hidden]), select, textarea')
    .filter({ visible: true })
    .evaluateAll((elements) =>
      elements
        .map((element) => element as unknown as FieldLike)
        .filter((field) => {
          const text = (node: { textContent: string | null } | null) => node?.textContent?.trim() ?? '';
          const byLabel = Array.from(field.labels ?? [], text).join('');
          const byIds = (field.getAttribute('aria-labelledby') ?? '')
            .split(/\s+/)
            .map((id) => (id ? text(field.ownerDocument.getElementById(id)) : ''))
            .join('');
          return !byLabel && !field.getAttribute('aria-label')?.trim() && !byIds;
        })
        .map((field) => field.outerHTML),
    );
  expect(unlabelled).toEqual([]);
}

describe('the web console in a real browser, against a server started like npm start', () => {
  it('signs up, starts a session, watches it live, releases it, shows the chart and archives the project', async () => {
    const { page, problems } = await browserAt();
    const who = newCredentials('flow');
    await signUp(page, server.url, who);
    await shown(projectCard(page, 'Active projects', 'Default Project'));

    await createProject(page, 'Checkout tests');
    await openProject(page, 'Checkout tests');
    const row = await startSession(page, 'Pink page');
    await expect.poll(() => row.getByRole('cell').nth(1).innerText()).toBe('RUNNING');

    await row.getByRole('link', { name: 'Pink page', exact: true }).click();
    await shown(page.getByRole('heading', { level: 1, name: 'Pink page' }));
    const driver = await showInSession(
      await shownConnectUrl(page),
      `<body style="margin:0;background:rgb(${PINK.join(',')})"><h1>Pink page</h1><img alt="" src="${siteUrl}/pixel.svg"></body>`,
    );
    try {
      const viewer = await frameOf(liveViewFrame(page, 'Pink page'));
      await expect
        .poll(() => screenColour(viewer), { timeout: 20_000, message: 'the live view shows the pink page' })
        .toSatisfy((rgb: number[]) => nearColour(rgb, PINK));

      // The session's network lists the page's request; choosing it shows its headers.
      const network = page.getByRole('region', { name: 'Network' });
      const request = network.getByRole('button', { name: `${siteUrl}/pixel.svg` });
      // The capture is a second behind at most: reload until the request is there, answered.
      await expect
        .poll(
          async () => {
            await network.getByRole('button', { name: 'Reload network' }).click();
            const row = network.getByRole('row').filter({ hasText: `${siteUrl}/pixel.svg` });
            return (await row.count()) === 1 ? row.innerText() : '';
          },
          { timeout: 15_000, message: 'the network lists the image request, answered 200' },
        )
        .toMatch(/\b200\b/);
      await request.click();
      const headers = page.getByRole('region', { name: `Headers of ${siteUrl}/pixel.svg` });
      await shown(headers.getByText(/^content-type$/i));
      await shown(headers.getByText('image/svg+xml', { exact: true }));
    } finally {
      await driver.close();
    }

    await page.getByRole('button', { name: 'Release' }).click();
    await shown(page.getByRole('main').getByText('COMPLETED', { exact: true }).first());
    await expect.poll(() => page.getByRole('button', { name: 'Release' }).isDisabled()).toBe(true);
    await shown(page.getByText('The session has ended: there is no browser to watch.'));

    // The inspector: once made, the tab's video plays; a log line's time seeks it, and the line the
    // video has reached is marked.
    const recording = page.getByRole('region', { name: 'Recording' });
    await shown(recording.getByLabel('Video of tab 0'), 60_000);
    const videoState = () =>
      page.evaluate<{ readyState: number; duration: number; currentTime: number; paused: boolean }>(
        "(() => { const v = document.querySelector('video'); return { readyState: v.readyState, duration: v.duration, currentTime: v.currentTime, paused: v.paused }; })()",
      );
    await expect
      .poll(async () => (await videoState()).readyState, { timeout: 20_000, message: 'the video loads' })
      .toBeGreaterThanOrEqual(2);
    expect((await videoState()).duration).toBeGreaterThan(1);
    // The end of the video shows the pink page.
    await page.evaluate(
      "(() => { const v = document.querySelector('video'); v.currentTime = v.duration - 0.2; })()",
    );
    await expect
      .poll(
        () =>
          page.evaluate<number[]>(
            "(() => { const v = document.querySelector('video'); const c = document.createElement('canvas'); c.width = v.videoWidth; c.height = v.videoHeight; const g = c.getContext('2d'); g.drawImage(v, 0, 0); return [...g.getImageData(c.width - 5, c.height - 5, 1, 1).data].slice(0, 3); })()",
          ),
        { timeout: 10_000, message: 'the video’s last frame is the pink page' },
      )
      .toSatisfy((rgb: number[]) => nearColour(rgb, PINK));
    await page.evaluate("document.querySelector('video').play()");
    await expect
      .poll(async () => (await videoState()).paused, { message: 'the video plays to its end' })
      .toBe(true);
    const logs = page.getByRole('region', { name: 'Logs' });
    await logs.getByRole('button', { name: 'Reload logs' }).click();
    await shown(logs.locator('tr[aria-current="time"]'));
    const firstLine = logs.getByRole('button', { name: /^Seek the video to / }).first();
    await firstLine.click();
    await expect
      .poll(async () => (await videoState()).currentTime)
      .toBeLessThan((await videoState()).duration - 0.5);
    await expect.poll(() => logs.locator('tr[aria-current="time"]').count()).toBe(1);
    // Choosing a request seeks it too: to the moment the image was asked for, before the end.
    await page.evaluate(
      "(() => { const v = document.querySelector('video'); v.currentTime = v.duration; })()",
    );
    const inspectorNetwork = page.getByRole('region', { name: 'Network' });
    await inspectorNetwork.getByRole('button', { name: `${siteUrl}/pixel.svg` }).click();
    await expect
      .poll(async () => (await videoState()).currentTime)
      .toBeLessThan((await videoState()).duration - 0.5);
    await shown(
      inspectorNetwork.locator('tr[aria-current="time"]').filter({ hasText: `${siteUrl}/pixel.svg` }),
    );

    await page.getByRole('link', { name: 'Sessions', exact: true }).first().click();
    await expect
      .poll(() => sessionRow(page, 'Pink page').getByRole('cell').nth(1).innerText())
      .toBe('COMPLETED');

    await openProjectTab(page, 'Stats');
    const chart = chartCanvas(page, 'Sessions created');
    await expect
      .poll(() => chart.measure(BAR_BLUE), { timeout: 15_000, message: 'the chart draws a bar' })
      .toSatisfy(({ width, height, matching }) => width > 0 && height > 0 && matching > 0);

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Projects' }).click();
    await projectCard(page, 'Active projects', 'Checkout tests')
      .getByRole('button', { name: 'Archive Checkout tests' })
      .click();
    const archived = projectCard(page, 'Archived projects', 'Checkout tests');
    await shown(archived);
    await shown(archived.getByRole('button', { name: 'Restore Checkout tests' }));
    await expect.poll(() => projectCard(page, 'Active projects', 'Checkout tests').count()).toBe(0);

    expect(problems()).toEqual([]);
  });

  it('names every control, has landmarks and one h1, and tabs through the sign-in form in order', async () => {
    const { page, problems } = await browserAt();
    await page.goto(`${server.url}/console`);
    await shown(page.getByRole('heading', { level: 1, name: 'Sign in' }));
    await expectAccessibleBasics(page, ['textbox "E-mail"', 'textbox "Password"', 'button "Sign in"']);

    // From the top of a freshly loaded page: the way in (skip link, brand, main navigation), then the form.
    await page.goto(`${server.url}/console/signin`);
    await shown(page.getByRole('heading', { level: 1, name: 'Sign in' }));
    const order: string[] = [];
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press('Tab');
      order.push(await focused(page));
    }
    expect(order).toEqual([
      'link "Skip to content"',
      'link "Browserdeck"',
      'link "Sign in"',
      'link "Sign up"',
      'textbox "E-mail"',
      'textbox "Password"',
      'button "Sign in"',
      'link "Create an account"',
    ]);
    // Arriving through a redirect (/console → sign-in) puts the focus on main: the next Tab is the form.
    await page.goto(`${server.url}/console`);
    await shown(page.getByRole('heading', { level: 1, name: 'Sign in' }));
    await expect.poll(() => page.locator(':focus').getAttribute('id')).toBe('main');
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('textbox "E-mail"');

    const who = newCredentials('a11y');
    await apiSignUp(server.url, who);
    await signIn(page, server.url, who);
    await shown(projectCard(page, 'Active projects', 'Default Project'));
    await expectAccessibleBasics(page, [
      'textbox "Project name"',
      'button "Create project"',
      'button "Archive Default Project"',
      'button "Sign out"',
    ]);
    expect(problems()).toEqual([]);
  });

  it('fits a phone: no sideways scrolling on the projects screen, and its buttons in view', async () => {
    const { page, problems } = await browserAt({ width: 375, height: 740 });
    const who = newCredentials('phone');
    await apiSignUp(server.url, who);
    await signIn(page, server.url, who);
    await shown(projectCard(page, 'Active projects', 'Default Project'));
    const overflow = await page.locator('html').evaluate((element) => {
      const root = element as unknown as { scrollWidth: number; clientWidth: number };
      return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth };
    });
    expect(overflow.clientWidth).toBe(375);
    expect(overflow.scrollWidth).toBeLessThanOrEqual(overflow.clientWidth);
    for (const name of ['Sign out', 'Create project']) {
      expect(await inViewport(page.getByRole('button', { name, exact: true }))).toBe(true);
    }
    const card = projectCard(page, 'Active projects', 'Default Project');
    for (const name of ['Rename Default Project', 'Archive Default Project', 'Delete Default Project']) {
      const button = card.getByRole('button', { name });
      await button.scrollIntoViewIfNeeded();
      expect(await inViewport(button)).toBe(true);
    }
    expect(problems()).toEqual([]);
  });
});
