import type { Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { apiSignUp } from './consoleApi.ts';
import { type ConsoleBrowser, openConsoleBrowser } from './consoleBrowser.ts';
import {
  type ConsoleServer,
  type Credentials,
  newCredentials,
  openProject,
  openProjectTab,
  showInSession,
  signIn,
  startConsoleServer,
} from './consoleFlows.ts';

/**
 * Runs in the web console (SPEC §11, §14), in a real browser against a server started like
 * `npm start`: an agent run from its page, its log lines streaming in over SSE while it runs, its
 * result once it has SUCCEEDED; a long run canceled; the run history.
 */

/** Logs, then waits for the test's signal (the page's title set to "go") before it returns. */
const SIGNALLED_SCRIPT = `
log(\`hello from \${input.name}\`);
await page.waitForFunction(() => document.title === 'go', undefined, { timeout: 50_000 });
console.log('signal received');
return { greeting: \`hi \${input.name}\`, title: await page.title() };
`;

/** Logs, then sleeps far longer than the test waits. */
const LONG_SCRIPT = `
log('sleeping');
await new Promise((resolve) => setTimeout(resolve, 600_000));
return 'woke up';
`;

/** A run as the API answers it (the fields this test reads). */
interface ApiRun {
  id: string;
  status: string;
  sessionId: string | null;
  result: unknown;
  error: { code: string; message: string } | null;
}

let server: ConsoleServer;
const browsers: ConsoleBrowser[] = [];

beforeAll(async () => {
  server = await startConsoleServer();
});

afterEach(async () => {
  for (const browser of browsers.splice(0)) await browser.close();
});

afterAll(async () => {
  await server?.stop();
});

/** Waits until the element is visible, up to `timeout` ms (starting a run starts a browser). */
const shown = (locator: Locator, timeout = 30_000) => locator.waitFor({ state: 'visible', timeout });

/** A user with an agent in their default project, made over the API. */
async function agentScene(who: Credentials, agent: { name: string; script: string }) {
  const call = await apiSignUp(server.url, who);
  const [project] = await call<Array<{ id: string; name: string }>>('GET', '/v1/projects?archived=false');
  if (!project) throw new Error('no default project');
  const base = `/v1/cloudbrowser/projects/${project.id}`;
  const created = await call<{ id: string }>('POST', `${base}/agents`, agent);
  return { call, base, projectId: project.id, agentId: created.id };
}

/** Signs in and opens the agent's page through the project's navigation. */
async function openAgent(who: Credentials, agentName: string): Promise<ConsoleBrowser> {
  const opened = await openConsoleBrowser();
  browsers.push(opened);
  const { page } = opened;
  await signIn(page, server.url, who);
  await openProject(page, 'Default Project');
  await openProjectTab(page, 'Agents');
  await page.getByRole('link', { name: agentName, exact: true }).click();
  await shown(page.getByRole('heading', { level: 1, name: agentName }));
  return opened;
}

/** The run's id from the run screen's address. */
function runIdOf(page: Page): string {
  const match = /\/runs\/([^/?#]+)$/.exec(new URL(page.url()).pathname);
  if (!match?.[1]) throw new Error(`not on a run's screen: ${page.url()}`);
  return decodeURIComponent(match[1]);
}

/** The run screen's status badge. */
const statusBadge = (page: Page) => page.getByRole('main').locator('.section-head .status');

/** Polls `read` until it passes, for up to 15 s: the run screen loads a run's status every 3 s. */
const eventually = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: 15_000 });

describe('runs in the web console, against a server started like npm start', () => {
  it('checks the input, runs an agent, streams its log lines live and shows SUCCEEDED with the result', async () => {
    const who = newCredentials('runs');
    const scene = await agentScene(who, { name: 'Greeter', script: SIGNALLED_SCRIPT });
    const { page, problems } = await openAgent(who, 'Greeter');

    // Input that is not JSON is refused here, before anything is sent.
    const input = page.getByLabel('Input (JSON)');
    await shown(input);
    await input.fill('{ name: console }');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await shown(page.getByText(/^Not valid JSON: /));
    expect(await input.getAttribute('aria-invalid')).toBe('true');
    expect((await scene.call<{ total: number }>('GET', `${scene.base}/runs`)).total).toBe(0);

    await input.fill('{ "name": "console" }');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await shown(page.getByRole('heading', { level: 1, name: 'Run of Greeter' }));
    const runId = runIdOf(page);
    const logs = page.getByRole('log', { name: 'Run logs' });

    // The first line arrives while the script still waits: it streamed in, it was not loaded at the end.
    await shown(logs.getByText('hello from console'));
    await eventually(() => statusBadge(page).innerText()).toBe('RUNNING');
    expect(await page.getByRole('button', { name: 'Cancel run' }).isEnabled()).toBe(true);
    expect(await logs.getByText('signal received').count()).toBe(0);
    const running = await scene.call<ApiRun>('GET', `${scene.base}/runs/${runId}`);
    expect(running.status).toBe('RUNNING');

    const session = await scene.call<{ connectUrl: string }>(
      'GET',
      `${scene.base}/sessions/${running.sessionId}`,
    );
    const driver = await showInSession(session.connectUrl, '<title>go</title><h1>Go</h1>');
    await driver.close();

    await shown(logs.getByText('signal received'));
    await eventually(() => statusBadge(page).innerText()).toBe('SUCCEEDED');
    const result = page.getByRole('region', { name: 'Result' }).locator('pre');
    expect(JSON.parse((await result.textContent()) ?? '')).toEqual({ greeting: 'hi console', title: 'go' });
    expect(await page.getByRole('button', { name: 'Cancel run' }).isDisabled()).toBe(true);
    await shown(page.getByText('The run has ended: these are all its lines.'));
    const ended = await scene.call<ApiRun>('GET', `${scene.base}/runs/${runId}`);
    expect(ended).toMatchObject({ status: 'SUCCEEDED', result: { greeting: 'hi console', title: 'go' } });

    // The run history: the agent's runs, with the result's preview.
    await page.getByRole('region', { name: 'Details' }).getByRole('link', { name: 'Greeter' }).click();
    await shown(page.getByRole('heading', { level: 1, name: 'Greeter' }));
    await page.getByRole('link', { name: 'Run history' }).click();
    await shown(page.getByRole('heading', { level: 2, name: 'Run history of Greeter' }));
    const rows = page.getByRole('table', { name: 'Runs, newest first' }).getByRole('row');
    await eventually(() => rows.count()).toBe(2);
    const cells = rows.nth(1).getByRole('cell');
    expect(await cells.nth(1).innerText()).toBe('Greeter');
    expect(await cells.nth(2).innerText()).toBe('SUCCEEDED');
    expect(await cells.nth(4).innerText()).toBe('{"greeting":"hi console","title":"go"}');

    expect(problems()).toEqual([]);
  });

  it('cancels a long run: CANCELED with its error, the Cancel button gone grey, the session released', async () => {
    const who = newCredentials('cancel');
    const scene = await agentScene(who, { name: 'Sleeper', script: LONG_SCRIPT });
    const { page, problems } = await openAgent(who, 'Sleeper');

    await shown(page.getByLabel('Input (JSON)'));
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await shown(page.getByRole('heading', { level: 1, name: 'Run of Sleeper' }));
    const runId = runIdOf(page);
    await shown(page.getByRole('log', { name: 'Run logs' }).getByText('sleeping'));
    await eventually(() => statusBadge(page).innerText()).toBe('RUNNING');

    await page.getByRole('button', { name: 'Cancel run' }).click();
    await eventually(() => statusBadge(page).innerText()).toBe('CANCELED');
    const error = page.getByRole('region', { name: 'Error' });
    await shown(error.getByText('canceled', { exact: true }));
    await eventually(() => page.getByRole('button', { name: 'Cancel run' }).isDisabled()).toBe(true);

    const canceled = await scene.call<ApiRun>('GET', `${scene.base}/runs/${runId}`);
    expect(canceled).toMatchObject({ status: 'CANCELED', error: { code: 'canceled' } });
    await expect
      .poll(
        async () =>
          (await scene.call<{ status: string }>('GET', `${scene.base}/sessions/${canceled.sessionId}`))
            .status,
        { timeout: 30_000, message: 'the run’s own session is released' },
      )
      .toBe('COMPLETED');

    await page
      .getByRole('navigation', { name: 'Project' })
      .getByRole('link', { name: 'Runs', exact: true })
      .click();
    await shown(page.getByRole('heading', { level: 1, name: 'Runs' }));
    const row = page.getByRole('table', { name: 'Runs, newest first' }).getByRole('row').nth(1);
    await eventually(() => row.getByRole('cell').nth(2).innerText()).toBe('CANCELED');
    expect(await row.getByRole('cell').nth(4).innerText()).toMatch(/^canceled: /);

    expect(problems()).toEqual([]);
  });
});
