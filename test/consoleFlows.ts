import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium, type Frame, type Locator, type Page } from 'playwright-core';
import { type ServerProcess, startServerProcess } from './serverProcess.ts';

/**
 * The steps a person takes in the web console (docs/console.md), by accessible names, shared by the
 * end-to-end test (test/console.int.test.ts), the screenshots (scripts/consoleScreenshots.ts) and
 * the console benchmark (bench/console.ts). The HTTP calls that set their scene are in consoleApi.ts.
 */

/** A server started as `npm start` starts it, over a data folder of its own. */
export interface ConsoleServer {
  readonly url: string;
  /** Its `DATA_DIR` (the SQLite file, keys). */
  readonly dataDir: string;
  readonly process: ServerProcess;
  /** Stops the server and removes its data folder. */
  stop(): Promise<void>;
}

/** Whom a flow signs up or in as. */
export interface Credentials {
  email: string;
  password: string;
}

/** Starts the standalone server with a temporary `DATA_DIR`, one warm browser and two sessions at most. */
export async function startConsoleServer(env: Record<string, string> = {}): Promise<ConsoleServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'browserdeck-console-'));
  try {
    const server = await startServerProcess(
      { DATA_DIR: dataDir, LOCAL_WARM_BROWSERS: '1', LOCAL_MAX_SESSIONS: '2', ...env },
      60_000,
    );
    return {
      url: server.url,
      dataDir,
      process: server,
      stop: async () => {
        await server.stop();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}

/** A fresh address for each run, so flows never collide on a taken e-mail. */
export function newCredentials(who = 'person'): Credentials {
  return { email: `${who}-${Date.now()}-${process.pid}@example.com`, password: 'correct horse battery' };
}

/** Opens `/console` signed out, goes to the sign-up screen and signs up; ends on the projects screen. */
export async function signUp(page: Page, url: string, who: Credentials): Promise<void> {
  await page.goto(`${url}/console`);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sign up' }).click();
  await page.getByLabel('E-mail').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Sign up', exact: true }).click();
  await page.getByRole('heading', { level: 1, name: 'Projects' }).waitFor();
}

/** Opens `/console` signed out and signs in; ends on the projects screen. */
export async function signIn(page: Page, url: string, who: Credentials): Promise<void> {
  await page.goto(`${url}/console`);
  await page.getByLabel('E-mail').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('heading', { level: 1, name: 'Projects' }).waitFor();
}

/** A project's card on the projects screen, in the active or archived list. */
export function projectCard(
  page: Page,
  list: 'Active projects' | 'Archived projects',
  name: string,
): Locator {
  return page
    .getByRole('region', { name: list })
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { level: 3 }).getByRole('link', { name, exact: true }) });
}

/** Creates a project on the projects screen and waits for its card among the active ones. */
export async function createProject(page: Page, name: string): Promise<void> {
  await page.getByLabel('Project name').fill(name);
  await page.getByRole('button', { name: 'Create project' }).click();
  await projectCard(page, 'Active projects', name).waitFor();
}

/** From the projects screen, opens a project's sessions. */
export async function openProject(page: Page, name: string): Promise<void> {
  await projectCard(page, 'Active projects', name).getByRole('link', { name, exact: true }).click();
  await page.getByRole('heading', { level: 1, name: 'Sessions' }).waitFor();
}

/** A project's tab (Sessions, Stats, Agents, API keys) from any of its screens. */
export async function openProjectTab(page: Page, tab: 'Sessions' | 'Stats' | 'Agents' | 'API keys') {
  await page
    .getByRole('navigation', { name: 'Project' })
    .getByRole('link', { name: tab, exact: true })
    .click();
  await page.getByRole('heading', { level: 1, name: tab }).waitFor();
}

/** The row of the sessions list that links to the session named `name`. */
export function sessionRow(page: Page, name: string): Locator {
  return page
    .getByRole('table', { name: 'Sessions, newest first' })
    .getByRole('row')
    .filter({ has: page.getByRole('link', { name, exact: true }) });
}

/** Starts a session named `name` from the sessions screen; the list shows it without a reload. */
export async function startSession(page: Page, name: string): Promise<Locator> {
  await page.getByLabel('Session name (optional)').fill(name);
  await page.getByRole('button', { name: 'Start session' }).click();
  const row = sessionRow(page, name);
  await row.waitFor();
  return row;
}

/** The live-view iframe on a session's detail screen. */
export function liveViewFrame(page: Page, sessionName: string): Locator {
  return page.getByRole('region', { name: 'Live view' }).getByTitle(`Live view of ${sessionName}`);
}

/** The session's `connectUrl` as its detail screen shows it. */
export async function shownConnectUrl(page: Page): Promise<string> {
  const value = page
    .getByRole('region', { name: 'Details' })
    .locator('div')
    .filter({
      has: page.getByRole('term').filter({ hasText: /^Connect URL$/ }),
    });
  const text = (await value.getByRole('definition').textContent())?.trim() ?? '';
  if (!text.startsWith('ws')) throw new Error(`no connect URL on the detail screen: "${text}"`);
  return text;
}

/**
 * Connects to a session over CDP as a script would and shows `html` in its first tab. Close the
 * returned browser to disconnect (it leaves the session's browser running).
 */
export async function showInSession(connectUrl: string, html: string): Promise<Browser> {
  const browser = await chromium.connectOverCDP(connectUrl);
  try {
    const context = browser.contexts()[0] ?? (await browser.newContext());
    const tab = context.pages()[0] ?? (await context.newPage());
    await tab.setContent(html);
    return browser;
  } catch (error) {
    await browser.close();
    throw error;
  }
}

/** The little of a `<canvas>` the page-side functions here use (the repository's TypeScript has no DOM library). */
interface CanvasLike {
  width: number;
  height: number;
  getContext(
    kind: '2d',
  ): { getImageData(x: number, y: number, w: number, h: number): { data: ArrayLike<number> } } | null;
}

/**
 * The colour of the live-view page's screen (its `<canvas id="screen">`) at a point given as
 * fractions of its width and height; the centre by default.
 */
export function screenColour(viewer: Frame, x = 0.5, y = 0.5): Promise<number[]> {
  return viewer.locator('canvas#screen').evaluate(
    (element, [fx, fy]) => {
      const canvas = element as unknown as CanvasLike;
      if (canvas.width === 0 || canvas.height === 0) return [];
      const point = [Math.floor(canvas.width * fx), Math.floor(canvas.height * fy)] as const;
      const data = canvas.getContext('2d')?.getImageData(point[0], point[1], 1, 1).data;
      return data ? [data[0]!, data[1]!, data[2]!] : [];
    },
    [x, y] as const,
  );
}

/** Whether two colours are within `tolerance` per channel (JPEG frames are lossy). */
export function nearColour(a: readonly number[], b: readonly number[], tolerance = 12): boolean {
  return a.length === b.length && a.every((value, i) => Math.abs(value - (b[i] ?? Number.NaN)) <= tolerance);
}

/** The `Frame` of an iframe the page shows. */
export async function frameOf(iframe: Locator): Promise<Frame> {
  const frame = await (await iframe.elementHandle())?.contentFrame();
  if (!frame) throw new Error('the iframe has no frame');
  return frame;
}

/**
 * A chart's canvas (uPlot's) in the figure named `name`: its size, and how many of its painted
 * pixels are near `rgb` (the series' colour: its bars).
 */
export function chartCanvas(page: Page, name: string) {
  const canvas = page.getByRole('figure', { name }).locator('canvas');
  return {
    canvas,
    measure: (rgb: readonly [number, number, number]) =>
      canvas.evaluate((element, colour) => {
        const c = element as unknown as CanvasLike;
        const data = c.getContext('2d')?.getImageData(0, 0, c.width, c.height).data ?? [];
        let matching = 0;
        for (let i = 0; i < data.length; i += 4) {
          if ((data[i + 3] ?? 0) === 0) continue;
          if (colour.every((v, k) => Math.abs((data[i + k] ?? 0) - v) <= 40)) matching += 1;
        }
        return { width: c.width, height: c.height, matching };
      }, rgb),
  };
}
