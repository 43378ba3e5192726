import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { findChromium } from '../packages/adapters/src/browsers/local-chromium/chromium/findChromium.ts';

/** A person's browser for the console: the project's Chromium, driven by playwright-core. */
export interface ConsoleBrowser {
  readonly browser: Browser;
  readonly context: BrowserContext;
  readonly page: Page;
  /**
   * Everything the browser reported as a problem so far: console errors and warnings (CSP
   * violations are console errors), uncaught page errors, and failed requests — in every frame.
   */
  problems(): string[];
  close(): Promise<void>;
}

/**
 * Starts the Chromium the local provider runs (`CHROMIUM_PATH`, else the npm package) under
 * playwright-core, with one page at `viewport`, and records what a person would see in its DevTools
 * console.
 */
export async function openConsoleBrowser(
  viewport: { width: number; height: number } = { width: 1280, height: 800 },
): Promise<ConsoleBrowser> {
  const found = await findChromium();
  if (!found) throw new Error('No Chromium for the console tests (findChromium found none).');
  // Root cannot use Chromium's sandbox without a user namespace set-up; the page is our own console.
  const browser = await chromium.launch({ executablePath: found.path, args: ['--no-sandbox'] });
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning')
      problems.push(`console ${message.type()}: ${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) => {
    // A live view's frames and long polls that the test itself ends by navigating away are aborted.
    if (request.failure()?.errorText === 'net::ERR_ABORTED') return;
    problems.push(`request failed: ${request.method()} ${request.url()} ${request.failure()?.errorText}`);
  });
  return {
    browser,
    context,
    page,
    problems: () => [...problems],
    close: () => browser.close(),
  };
}
