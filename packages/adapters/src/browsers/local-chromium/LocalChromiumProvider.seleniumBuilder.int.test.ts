import { Agent, type ClientRequest } from 'node:http';
import type { ProviderSessionSnapshot } from '@browserdeck/domain';
import {
  browserRequest,
  callWebDriver,
  requirePairedBuild,
  startPageServer,
  startWebDriverProvider,
} from '@browserdeck/testing/local-chromium';
import { chromium } from 'playwright-core';
import { Builder, type WebDriver } from 'selenium-webdriver';
import { Options } from 'selenium-webdriver/chrome.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** An HTTP agent that sets `x-bb-signing-key` on every request, as Browserbase's Selenium quick start does. */
function signingKeyAgent(key: string): Agent {
  const agent = new Agent({ keepAlive: true });
  const addRequest = (
    Agent.prototype as unknown as { addRequest: (req: ClientRequest, options: unknown) => void }
  ).addRequest;
  (agent as unknown as { addRequest: typeof addRequest }).addRequest = (req, options) => {
    req.setHeader('x-bb-signing-key', key);
    addRequest.call(agent, req, options);
  };
  return agent;
}

describe('LocalChromiumProvider: selenium-webdriver’s Builder on seleniumRemoteUrl (real Chromium and chromedriver)', () => {
  let started: Awaited<ReturnType<typeof startWebDriverProvider>>;
  let pages: Awaited<ReturnType<typeof startPageServer>>;
  let session: ProviderSessionSnapshot;
  let url: string;
  /** `new Builder().forBrowser('chrome').usingServer(url).build()`, as a Selenium suite builds its driver. */
  const build = (builder = new Builder().forBrowser('chrome')): WebDriver => builder.usingServer(url).build();

  beforeAll(async () => {
    await requirePairedBuild();
    pages = await startPageServer();
    started = await startWebDriverProvider();
    session = await started.provider.create(browserRequest());
    url = session.seleniumRemoteUrl ?? '';
  });

  afterAll(async () => {
    await started?.close();
    await pages?.close();
  });

  it('builds, navigates, reads the title and quits, and builds again on the same running browser', async () => {
    const first = build();
    await first.get(`${pages.url}/`);
    expect(await first.getTitle()).toBe('deck page');
    const caps = await first.getCapabilities();
    // chromedriver names the build it drives: Debian's headless shell, or the full Chromium (CHROMIUM_PATH).
    expect(['chrome-headless-shell', 'chrome']).toContain(caps.getBrowserName());
    expect(caps.getBrowserVersion()).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    expect(caps.getPlatform()).toBe('linux');
    expect(caps.get('goog:chromeOptions')).toEqual({});
    const webdriverId = (await first.getSession()).getId();
    await first.quit();

    // A suite's per-test driver: every build gets the session's browser, as the last test left it.
    for (let test = 0; test < 2; test++) {
      const next = build();
      expect((await next.getSession()).getId()).toBe(webdriverId);
      expect(await next.getTitle()).toBe('deck page');
      await next.get(`${pages.url}/cookies`);
      await next.get(`${pages.url}/`);
      await next.quit();
    }
    expect((await started.provider.get(session.providerSessionId))?.status).toBe('RUNNING');
    const browser = await chromium.connectOverCDP(session.connectUrl);
    try {
      const urls = browser.contexts().flatMap((context) => context.pages().map((page) => page.url()));
      expect(urls).toContain(`${pages.url}/`);
    } finally {
      await browser.close();
    }
  });

  it('takes ChromeOptions that change nothing on a running browser, and honours timeouts per new session', async () => {
    const options = new Options();
    options.addArguments('--headless=new', '--no-sandbox', '--disable-dev-shm-usage');
    const withOptions = build(new Builder().forBrowser('chrome').setChromeOptions(options));
    expect(await withOptions.getTitle()).toBe('deck page');
    await withOptions.quit();

    const patient = build(
      new Builder()
        .forBrowser('chrome')
        .withCapabilities({ browserName: 'chrome', timeouts: { implicit: 1500 } }),
    );
    expect(await patient.manage().getTimeouts()).toMatchObject({ implicit: 1500, pageLoad: 300000 });
    await patient.quit();
    // The next new session starts from the session's own timeouts again.
    const fresh = build();
    expect(await fresh.manage().getTimeouts()).toMatchObject({ implicit: 0, script: 30000 });
    await fresh.quit();
  });

  it('refuses capabilities the running browser cannot honour, naming them (session not created)', async () => {
    const sizedOptions = new Options();
    sizedOptions.addArguments('--window-size=1280,800');
    // The built driver is a thenable of the session: awaiting it is where a refusal shows.
    await expect(
      build(new Builder().forBrowser('chrome').setChromeOptions(sizedOptions)),
    ).rejects.toMatchObject({
      name: 'SessionNotCreatedError',
      message: expect.stringContaining('goog:chromeOptions.args "--window-size=1280,800"'),
    });
    const old = build(new Builder().withCapabilities({ browserName: 'chrome', browserVersion: '99' }));
    await expect(old).rejects.toThrow(/browserVersion "99": this session’s browser is version \d+/);
    const raw = await callWebDriver(url, 'POST', '/session', {
      capabilities: { alwaysMatch: { browserName: 'firefox', proxy: { proxyType: 'system' } } },
    });
    expect(raw).toMatchObject({ status: 500, body: { value: { error: 'session not created' } } });
    expect(String(raw.body.value.message)).toMatch(/browserName "firefox".*proxy \{"proxyType":"system"\}/);
    // Refusing a new session leaves the session's browser to the next one.
    const after = build();
    expect(await after.getTitle()).toBe('deck page');
    await after.quit();
  });

  it('serves Browserbase’s Selenium flow: the session’s signing key in an x-bb-signing-key header', async () => {
    const key = new URL(session.connectUrl).searchParams.get('signingKey') ?? '';
    const driver = build(new Builder().forBrowser('chrome').usingHttpAgent(signingKeyAgent(key)));
    await driver.get(`${pages.url}/`);
    expect(await driver.getTitle()).toBe('deck page');
    await driver.quit();
    const wrong = build(new Builder().forBrowser('chrome').usingHttpAgent(signingKeyAgent('not-the-key')));
    await expect(wrong).rejects.toMatchObject({
      name: 'NoSuchSessionError',
      message: 'The x-bb-signing-key header is not this session’s signing key.',
    });
  });
});
