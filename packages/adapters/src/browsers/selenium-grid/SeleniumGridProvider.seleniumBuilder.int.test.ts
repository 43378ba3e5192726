import {
  gridRequest,
  gridSessionIds,
  type SeleniumGrid,
  startGridProvider,
  startSeleniumGrid,
} from '@browserdeck/testing/selenium-grid';
import { chromium } from 'playwright-core';
import { Builder, By, type WebDriver } from 'selenium-webdriver';
import { Options } from 'selenium-webdriver/chrome.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SeleniumGridProvider } from './SeleniumGridProvider.ts';

const PAGE = 'data:text/html,<title>Grid page</title><p id="x">hello</p>';

describe('SeleniumGridProvider: selenium-webdriver’s Builder on seleniumRemoteUrl (a real Selenium Grid 4)', () => {
  let grid: SeleniumGrid;
  let started: Awaited<ReturnType<typeof startGridProvider>>;
  let provider: SeleniumGridProvider;

  beforeAll(async () => {
    grid = await startSeleniumGrid({ topology: 'standalone', maxSessionsPerNode: 2 });
    started = await startGridProvider(grid.url);
    provider = started.provider;
  });

  afterAll(async () => {
    await started?.close();
    await grid?.close();
  });

  it('builds, navigates, reads the title and quits, and builds again on the same Grid session', async () => {
    const created = await provider.create(gridRequest());
    const build = (builder = new Builder().forBrowser('chrome')): WebDriver =>
      builder.usingServer(created.seleniumRemoteUrl ?? '').build();
    try {
      const first = build();
      expect((await first.getSession()).getId()).toBe(created.providerSessionId);
      await first.get(PAGE);
      expect(await first.getTitle()).toBe('Grid page');
      const caps = await first.getCapabilities();
      expect(caps.getBrowserName()).toMatch(/^chrom/);
      expect(caps.getBrowserVersion()).toBe(grid.prerequisites.browserVersion);
      expect(caps.getPlatform()).toBe('linux');
      // The Grid's node addresses are not handed out (DevTools is the session's connectUrl).
      expect(caps.has('se:cdp')).toBe(false);
      expect(caps.get('goog:chromeOptions')).not.toHaveProperty('debuggerAddress');
      await first.quit();
      expect(await gridSessionIds(grid.url)).toContain(created.providerSessionId);

      const second = build();
      expect((await second.getSession()).getId()).toBe(created.providerSessionId);
      expect(await second.findElement(By.id('x')).getText()).toBe('hello');
      await second.quit();
      const browser = await chromium.connectOverCDP(created.connectUrl);
      try {
        expect(await browser.contexts()[0]!.pages()[0]!.title()).toBe('Grid page');
      } finally {
        await browser.close();
      }

      const sizedOptions = new Options();
      sizedOptions.addArguments('--headless=new', '--window-size=1280,800');
      // The built driver is a thenable of the session: awaiting it is where a refusal shows.
      await expect(
        build(new Builder().forBrowser('chrome').setChromeOptions(sizedOptions)),
      ).rejects.toMatchObject({
        name: 'SessionNotCreatedError',
        message: expect.stringMatching(
          /goog:chromeOptions\.args "--window-size=1280,800": takes effect only/,
        ),
      });
      expect((await provider.get(created.providerSessionId))?.status).toBe('RUNNING');
    } finally {
      await provider.release(created.providerSessionId);
    }
  });
});
