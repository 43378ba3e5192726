/**
 * `npm run screenshots`: starts the server as `npm start` does (a temporary `DATA_DIR`), goes
 * through the console as a person would, with the steps of the end-to-end test (test/consoleFlows.ts),
 * and saves PNGs of its main screens at 1280×800 (and one at phone width) into docs/screenshots/.
 * Everything runs on loopback: the session's browser shows a `data:` page, not the internet.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { Locator, Page } from 'playwright-core';
import { apiSignIn, startAndReleaseSessions } from '../test/consoleApi.ts';
import { openConsoleBrowser } from '../test/consoleBrowser.ts';
import {
  chartCanvas,
  createProject,
  frameOf,
  liveViewFrame,
  nearColour,
  openProject,
  openProjectTab,
  projectCard,
  screenColour,
  showInSession,
  shownConnectUrl,
  signIn,
  signUp,
  startConsoleServer,
  startSession,
} from '../test/consoleFlows.ts';

const OUT = resolve(import.meta.dirname, '../docs/screenshots');
const TEAL: [number, number, number] = [13, 148, 136];
const PAGE = `<!doctype html><title>Checkout · Demo shop</title>
<body style="margin:0;font:18px system-ui,sans-serif;background:rgb(${TEAL.join(',')});color:#fff">
<div style="padding:48px 64px"><h1 style="font-size:56px;margin:0 0 16px">Demo shop</h1>
<p style="font-size:24px;margin:0 0 32px">Checkout · step 2 of 3</p>
<div style="background:#fff;color:#134e4a;border-radius:12px;padding:24px 32px;max-width:520px">
<p style="margin:0 0 12px;font-weight:600">Shipping address</p><p style="margin:0">Ada Lovelace<br>12 St James's Square<br>London</p>
</div></div></body>`;
const SCRIPT = `// Log in and check the basket total.
await page.goto('https://shop.example.com/login');
await page.fill('#email', process.env.SHOP_USER);
await page.fill('#password', process.env.SHOP_PASSWORD);
await page.click('text=Sign in');
const total = await page.textContent('.basket-total');
console.log('basket total', total);`;

/** Hours ago and browser seconds of the history's sessions, oldest first. */
const HISTORY: ReadonlyArray<readonly [number, number]> = [
  [22, 420],
  [21, 180],
  [20, 600],
  [17, 240],
  [14, 90],
  [13, 300],
  [13, 720],
  [10, 150],
  [8, 480],
  [6, 60],
  [5, 900],
  [5, 360],
  [4, 200],
  [3, 540],
  [2, 120],
  [1, 300],
];

/**
 * Moves the project's ended sessions back in time, one per `HISTORY` entry in creation order (a
 * screenshot fixture; the server reads the same file, SQLite keeps times as epoch milliseconds).
 */
function backdate(file: string, projectId: string): void {
  const db = new DatabaseSync(file);
  try {
    const rows = db
      .prepare(
        'select id from browser_sessions where project_id = ? and ended_at is not null order by created_at, id',
      )
      .all(projectId) as Array<{ id: string }>;
    if (rows.length !== HISTORY.length)
      throw new Error(`expected ${HISTORY.length} sessions, found ${rows.length}`);
    const now = Date.now();
    const move = db.prepare(
      `update browser_sessions set created_at = ?, started_at = ?, updated_at = ?, ended_at = ?,
         last_synced_at = ?, expires_at = ? + timeout_sec * 1000 where id = ?`,
    );
    rows.forEach(({ id }, i) => {
      const [hoursAgo, seconds] = HISTORY[i]!;
      const start = now - hoursAgo * 3_600_000 - ((i * 7) % 50) * 60_000;
      const end = start + seconds * 1000;
      move.run(start, start, end, end, end, start, id);
    });
  } finally {
    db.close();
  }
}

const pause = (ms: number) => new Promise((done) => setTimeout(done, ms));

async function until(probe: () => Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await pause(200);
  }
}

/** Scrolls the page so that the element is at the top of the window. */
async function scrollToTop(locator: Locator): Promise<void> {
  await locator.evaluate((element) =>
    (element as unknown as { scrollIntoView(options: { block: string }): void }).scrollIntoView({
      block: 'start',
    }),
  );
}

async function save(page: Page, name: string): Promise<void> {
  // No caret or focus ring mid-blink, and the status line's last message is kept as it is.
  await page.mouse.move(0, 0);
  await pause(300);
  const path = join(OUT, `${name}.png`);
  await page.screenshot({ path, animations: 'disabled', caret: 'hide' });
  console.log(`saved ${path}`);
}

mkdirSync(OUT, { recursive: true });
const server = await startConsoleServer();
const { page, context, problems, close } = await openConsoleBrowser({ width: 1280, height: 800 });
try {
  const who = { email: 'ada@example.com', password: 'correct horse battery' };

  await page.goto(`${server.url}/console`);
  await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
  await page.getByLabel('E-mail').fill(who.email);
  await save(page, 'sign-in');

  await signUp(page, server.url, who);
  await createProject(page, 'Nightly crawl');
  await createProject(page, 'Checkout tests');
  await projectCard(page, 'Active projects', 'Nightly crawl')
    .getByRole('button', { name: 'Archive Nightly crawl' })
    .click();
  await projectCard(page, 'Archived projects', 'Nightly crawl').waitFor();
  await save(page, 'projects');

  // Some history for the list and the charts: sessions started and released over HTTP, then spread
  // over the last day in the database (the API only makes sessions now), so the charts have a shape.
  const call = await apiSignIn(server.url, who);
  const projects = await call<Array<{ id: string; name: string }>>('GET', '/v1/projects');
  const project = projects.find((p) => p.name === 'Checkout tests');
  if (!project) throw new Error('no Checkout tests project');
  await startAndReleaseSessions(call, project.id, HISTORY.length, (i) => `Checkout run ${i + 1}`);
  backdate(join(server.dataDir, 'browserdeck.sqlite'), project.id);

  await openProject(page, 'Checkout tests');
  const row = await startSession(page, 'Checkout, live');
  await until(async () => (await row.getByRole('cell').nth(1).innerText()) === 'RUNNING', 'RUNNING');
  await save(page, 'sessions');

  // The same list on a phone, while the session runs.
  const phone = await context.browser()!.newContext({ viewport: { width: 375, height: 740 } });
  const small = await phone.newPage();
  await signIn(small, server.url, who);
  await small.getByRole('link', { name: 'Checkout tests', exact: true }).click();
  await small.getByRole('heading', { level: 1, name: 'Sessions' }).waitFor();
  await small.getByRole('table', { name: 'Sessions, newest first' }).waitFor();
  await scrollToTop(small.getByRole('region', { name: 'Session list' }));
  await save(small, 'phone-sessions');
  await phone.close();

  await row.getByRole('link', { name: 'Checkout, live', exact: true }).click();
  await page.getByRole('heading', { level: 1, name: 'Checkout, live' }).waitFor();
  const driver = await showInSession(await shownConnectUrl(page), PAGE);
  try {
    const viewer = await frameOf(liveViewFrame(page, 'Checkout, live'));
    await until(async () => nearColour(await screenColour(viewer, 0.02, 0.98), TEAL, 24), 'the live view');
    // The live view at the top of the window.
    await scrollToTop(page.getByRole('region', { name: 'Live view' }));
    await save(page, 'session-live-view');
  } finally {
    await driver.close();
  }
  await page.evaluate('window.scrollTo(0, 0)');
  await page.getByRole('button', { name: 'Release' }).click();
  await page.getByRole('main').getByText('COMPLETED', { exact: true }).first().waitFor();

  await openProjectTab(page, 'Stats');
  const created = chartCanvas(page, 'Sessions created');
  await until(async () => (await created.measure([29, 78, 216])).matching > 0, 'the chart');
  await save(page, 'stats');

  await openProjectTab(page, 'Agents');
  await page.getByRole('link', { name: 'New agent' }).click();
  await page.getByRole('heading', { level: 1, name: 'New agent' }).waitFor();
  await page.getByLabel('Name', { exact: true }).fill('Basket check');
  await page.getByLabel('Description').fill('Signs in to the demo shop and reads the basket total.');
  const script = page.getByLabel('Script', { exact: true });
  await script.waitFor();
  await script.fill(SCRIPT);
  for (const [key, value] of [
    ['SHOP_USER', 'ada@example.com'],
    ['SHOP_PASSWORD', 'hunter2-but-longer'],
  ] as const) {
    await page.getByRole('button', { name: 'Add variable' }).click();
    const n = await page.getByLabel(/^Name of variable \d+$/).count();
    await page.getByLabel(`Name of variable ${n}`).fill(key);
    await page.getByLabel(`Value of variable ${n}`).fill(value);
  }
  await page.getByRole('button', { name: 'Create agent' }).click();
  await page.getByRole('heading', { level: 1, name: 'Basket check' }).waitFor();
  await page.getByRole('button', { name: 'Save agent' }).waitFor();
  // The script and the masked values in one window.
  await scrollToTop(page.getByRole('heading', { level: 1, name: 'Basket check' }));
  await save(page, 'agent-editor');

  await openProjectTab(page, 'API keys');
  await page.getByLabel('Key name').fill('ci');
  await page.getByRole('button', { name: 'Create API key' }).click();
  await page.getByRole('button', { name: 'Copy key' }).waitFor();
  await save(page, 'api-keys');

  const seen = problems();
  if (seen.length > 0) throw new Error(`the browser reported problems:\n${seen.join('\n')}`);
} finally {
  await close();
  await server.stop();
}
