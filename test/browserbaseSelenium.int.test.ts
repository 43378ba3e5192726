import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Browserbase from '@browserbasehq/sdk';
import { Builder } from 'selenium-webdriver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { givenProjectApiKey } from './projectApiKey.ts';
import { runNodeScript } from './runNodeScript.ts';
import { type ServerProcess, startServerProcess } from './serverProcess.ts';

const QUICKSTART = resolve(import.meta.dirname, '../docs/examples/browserbase-selenium-quickstart.mjs');

describe('Browserbase’s Selenium quick-start against npm start’s server (local Chromium and chromedriver)', () => {
  let server: ServerProcess;
  let dir: string;
  let bb: Browserbase;
  let given: Awaited<ReturnType<typeof givenProjectApiKey>>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'browserdeck-bb-selenium-'));
    server = await startServerProcess({
      DATA_DIR: dir,
      LOCAL_MAX_SESSIONS: '2',
      LOCAL_MAX_SESSIONS_PER_OWNER: '2',
      LOCAL_WARM_BROWSERS: '0',
    });
    given = await givenProjectApiKey(server, 'bb-selenium@example.com');
    bb = new Browserbase({ apiKey: given.key, baseURL: server.url, maxRetries: 0 });
  }, 60_000);

  afterAll(async () => {
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('runs it with two lines changed (and a release added): x-bb-signing-key, Builder on seleniumRemoteUrl, quit', async () => {
    const out = await runNodeScript(QUICKSTART, {
      BROWSERDECK_URL: server.url,
      BROWSERDECK_API_KEY: given.key,
      BROWSERBASE_PROJECT_ID: given.projectId,
      QUICKSTART_PAGE: 'data:text/html,<title>selenium quick start</title>',
    });
    expect(out).toContain('Title: selenium quick start');
    const id = /Session created, id: (\S+)/.exec(out)?.[1] as string;
    expect((await bb.sessions.retrieve(id)).status).toBe('COMPLETED');
  }, 60_000);

  it('answers each new WebDriver session with the compat session’s browser until it is released', async () => {
    const session = await bb.sessions.create({ projectId: given.projectId });
    expect(session.seleniumRemoteUrl).toMatch(
      new RegExp(`/v1/local/sessions/[^/]+/webdriver/${session.signingKey}$`),
    );
    const build = () => new Builder().forBrowser('chrome').usingServer(session.seleniumRemoteUrl).build();
    const first = build();
    await first.get('data:text/html,<title>first test</title>');
    await first.quit();
    const second = build();
    expect(await second.getTitle()).toBe('first test');
    await second.quit();
    expect((await bb.sessions.retrieve(session.id)).status).toBe('RUNNING');
    await bb.sessions.update(session.id, { status: 'REQUEST_RELEASE' });
    await expect(build()).rejects.toMatchObject({ name: 'NoSuchSessionError' });
  }, 60_000);
});
