import { chmod, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { ProviderSessionSnapshot } from '@browserdeck/domain';
import {
  browserRequest,
  callWebDriver as call,
  eventually,
  makeScratchDir,
  processTree,
  requirePairedBuild,
  startPageServer,
  startWebDriverProvider as startProvider,
} from '@browserdeck/testing/local-chromium';
import { chromium } from 'playwright-core';
import { By, Session, WebDriver } from 'selenium-webdriver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The package has no `exports`: its `http` folder is loaded as CommonJS, typed by @types/selenium-webdriver.
const { Executor, HttpClient } = createRequire(import.meta.url)(
  'selenium-webdriver/http',
) as typeof import('selenium-webdriver/http.js');

/** selenium-webdriver attached to an existing session through its `seleniumRemoteUrl`. */
function attachSelenium(url: string, sessionId: string): WebDriver {
  return new WebDriver(new Session(sessionId, {}), new Executor(new HttpClient(url)));
}

/** The chromedriver processes this test process runs. */
async function chromedrivers(): Promise<number> {
  return (await processTree(process.pid)).filter((p) => p.cmdline.includes('--url-base=')).length;
}

describe('LocalChromiumProvider: seleniumRemoteUrl (real Chromium and chromedriver)', () => {
  let started: Awaited<ReturnType<typeof startProvider>>;
  let pages: Awaited<ReturnType<typeof startPageServer>>;
  let session: ProviderSessionSnapshot;
  let url: string;
  const browserdeckSessionId = '0190b2c4-7a1e-7c3d-9a2b-0000000000aa';

  beforeAll(async () => {
    await requirePairedBuild();
    pages = await startPageServer();
    started = await startProvider();
    session = await started.provider.create(browserRequest({ sessionId: browserdeckSessionId }));
    url = session.seleniumRemoteUrl ?? '';
  });

  afterAll(async () => {
    await started?.close();
    await pages?.close();
  });

  it('hands out a signed WebDriver URL beside connectUrl, with the same key', () => {
    const key = new URL(session.connectUrl).searchParams.get('signingKey');
    expect(url).toBe(
      `${new URL(session.connectUrl).origin.replace('ws:', 'http:')}/v1/local/sessions/${session.providerSessionId}/webdriver/${key}`,
    );
  });

  it('drives the session’s own browser with selenium-webdriver, which Playwright sees over connectUrl', async () => {
    const driver = attachSelenium(url, session.providerSessionId);
    await driver.get(`${pages.url}/`);
    expect(await driver.getTitle()).toBe('deck page');
    const out = await driver.findElement(By.id('out'));
    await eventually(async () => (await out.getText()) === 'data loaded');
    const browser = await chromium.connectOverCDP(session.connectUrl);
    try {
      const urls = browser.contexts().flatMap((context) => context.pages().map((page) => page.url()));
      expect(urls).toContain(`${pages.url}/`);
      const page = browser
        .contexts()[0]!
        .pages()
        .find((p) => p.url() === `${pages.url}/`)!;
      await page.evaluate("document.title = 'set by playwright'");
      expect(await driver.getTitle()).toBe('set by playwright');
    } finally {
      await browser.close();
    }
  });

  it('serves the everyday commands through the CDP policy: scripts, cookies, input, windows, screenshots', async () => {
    const driver = attachSelenium(url, session.providerSessionId);
    await driver.get(`${pages.url}/set-cookie?value=selenium`);
    expect(await driver.manage().getCookie('deck')).toMatchObject({ value: 'selenium' });
    await driver.get(`${pages.url}/`);
    expect(await driver.executeScript('return 6 * 7')).toBe(42);
    expect(await driver.executeAsyncScript('arguments[0](document.title)')).toBe('deck page');
    await driver
      .actions()
      .move({ origin: await driver.findElement(By.id('out')) })
      .click()
      .perform();
    expect((await driver.takeScreenshot()).length).toBeGreaterThan(1000);
    const first = await driver.getWindowHandle();
    await driver.switchTo().newWindow('tab');
    await driver.get(`${pages.url}/cookies`);
    expect(await driver.findElement(By.css('body')).getText()).toContain('deck=selenium');
    expect(await driver.getAllWindowHandles()).toHaveLength(2);
    await driver.close();
    await driver.switchTo().window(first);
    expect(await driver.getTitle()).toBe('deck page');
  });

  it('names the session by its WebDriver id, provider id or Browserdeck id, and refuses any other', async () => {
    const byBrowserdeckId = await call(url, 'GET', `/session/${browserdeckSessionId}/title`);
    expect(byBrowserdeckId.status).toBe(200);
    const other = await started.provider.create(browserRequest());
    try {
      const refused = await call(url, 'GET', `/session/${other.providerSessionId}/title`);
      expect(refused).toMatchObject({ status: 404, body: { value: { error: 'invalid session id' } } });
      const otherDriver = attachSelenium(url, other.providerSessionId);
      await expect(otherDriver.getTitle()).rejects.toMatchObject({ name: 'NoSuchSessionError' });
      const mine = await call(other.seleniumRemoteUrl!, 'GET', `/session/${session.providerSessionId}/url`);
      expect(mine.status).toBe(404);
    } finally {
      await started.provider.release(other.providerSessionId);
    }
  });

  it('answers a new session with this one, and answers DELETE of the session without ending the browser', async () => {
    const created = await call(url, 'POST', '/session', { capabilities: { alwaysMatch: {} } });
    expect(created).toMatchObject({
      status: 200,
      body: { value: { capabilities: { browserVersion: expect.any(String) } } },
    });
    expect(String(created.body.value.sessionId)).toMatch(/^[0-9a-f]{32}$/);
    const deleted = await call(url, 'DELETE', `/session/${session.providerSessionId}`);
    expect(deleted).toMatchObject({ status: 200, body: { value: null } });
    expect((await call(url, 'GET', `/session/${session.providerSessionId}/title`)).status).toBe(200);
    expect((await started.provider.get(session.providerSessionId))?.status).toBe('RUNNING');
  });

  it('checks DevTools commands sent through WebDriver with the CDP policy', async () => {
    const path = `/session/${session.providerSessionId}/goog/cdp/execute`;
    const allowed = await call(url, 'POST', path, {
      cmd: 'Runtime.evaluate',
      params: { expression: '6 * 7', returnByValue: true },
    });
    expect(allowed.status).toBe(200);
    expect(allowed.body.value).toMatchObject({ result: { value: 42 } });
    const refused = await call(url, 'POST', path, { cmd: 'SystemInfo.getInfo', params: {} });
    expect(refused).toMatchObject({ status: 403, body: { value: { error: 'unsupported operation' } } });
    expect(String(refused.body.value.message)).toMatch(/allowlist/);
    const fileUrl = await call(url, 'POST', `/session/${session.providerSessionId}/url`, {
      url: 'file:///etc/passwd',
    });
    expect(fileUrl.status).toBeGreaterThanOrEqual(400);
    expect((await call(url, 'GET', '/shutdown')).status).toBe(404);
  });

  it('refuses a wrong key and an unknown session in WebDriver’s error shape', async () => {
    const wrongKey = url.replace(/\/webdriver\/[^/]+$/, '/webdriver/not-the-key');
    expect(await call(wrongKey, 'GET', `/session/${session.providerSessionId}/title`)).toMatchObject({
      status: 401,
      body: { value: { error: 'invalid session id', message: 'Invalid signing key.' } },
    });
    const unknown = url.replace(session.providerSessionId, '0190b2c4-7a1e-7c3d-9a2b-ffffffffffff');
    expect((await call(unknown, 'GET', '/status')).status).toBe(404);
  });

  it('starts a chromedriver that died again on the next request, on the same browser', async () => {
    const title = `/session/${session.providerSessionId}/title`;
    await call(url, 'POST', `/session/${session.providerSessionId}/url`, { url: `${pages.url}/` });
    const [driver] = (await processTree(process.pid)).filter((p) => p.cmdline.includes('--url-base='));
    expect(driver).toBeDefined();
    process.kill(driver!.pid, 'SIGKILL');
    await eventually(async () => !(await processTree(process.pid)).some((p) => p.pid === driver!.pid));
    expect(await call(url, 'GET', title)).toMatchObject({ status: 200, body: { value: 'deck page' } });
  });

  it('stops the session’s chromedriver when the session ends, and refuses the endpoint after release', async () => {
    const ending = await started.provider.create(browserRequest());
    const endingUrl = ending.seleniumRemoteUrl!;
    const before = await chromedrivers();
    expect((await call(endingUrl, 'GET', `/session/${ending.providerSessionId}/title`)).status).toBe(200);
    expect(await chromedrivers()).toBe(before + 1);
    await started.provider.release(ending.providerSessionId);
    await eventually(async () => (await chromedrivers()) === before);
    expect(await call(endingUrl, 'GET', `/session/${ending.providerSessionId}/title`)).toMatchObject({
      status: 409,
      body: { value: { error: 'invalid session id' } },
    });
  });
});

describe('LocalChromiumProvider: without a matching chromedriver', () => {
  it('hands out no seleniumRemoteUrl', async () => {
    await requirePairedBuild();
    const scratch = await makeScratchDir();
    const fake = join(scratch.dir, 'chromedriver');
    await writeFile(fake, '#!/bin/sh\necho "ChromeDriver 1.0.0.0 (fake)"\n');
    await chmod(fake, 0o755);
    const started = await startProvider({ chromedriverPath: fake });
    try {
      const session = await started.provider.create(browserRequest());
      expect(session.seleniumRemoteUrl).toBeNull();
      expect(session.connectUrl).toMatch(/^ws:/);
    } finally {
      await started.close();
      await scratch.remove();
    }
  });
});
