import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { browserRequest, eventually, startLocalProvider } from '@browserdeck/testing/local-chromium';
import { chromium } from 'playwright-core';
import puppeteer from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalChromiumProvider } from './LocalChromiumProvider.ts';

const UPLOAD_PAGE = `data:text/html,<input type="file" id="f"><p id="out"></p><script>
  document.getElementById('f').onchange = async (e) => {
    document.getElementById('out').textContent = await e.target.files[0].text();
  };
</script>`;
const DOWNLOAD_PAGE = `data:text/html,<a id="d" download="report.txt" href="data:text/plain,downloaded%20by%20the%20page">get</a>`;

describe('LocalChromiumProvider: Playwright and Puppeteer clients on confined browsers (real Chromium)', () => {
  let started: Awaited<ReturnType<typeof startLocalProvider>>;
  let provider: LocalChromiumProvider;
  let scratch: string;

  beforeAll(async () => {
    started = await startLocalProvider();
    provider = started.provider;
    scratch = started.dataDir;
  });

  afterAll(() => started?.close());

  it("Playwright uploads a file from the client's disk and the page's download lands in the session's folder", async () => {
    const session = await provider.create(browserRequest());
    const browser = await chromium.connectOverCDP(session.connectUrl);
    try {
      const page = await browser.contexts()[0]!.newPage();
      await page.goto(UPLOAD_PAGE);
      // A path on the client's side: Playwright sends the file's contents, never the path.
      const local = join(scratch, 'from-the-client.txt');
      await writeFile(local, 'uploaded by the client');
      await page.setInputFiles('#f', local);
      await expect.poll(() => page.textContent('#out')).toBe('uploaded by the client');

      await page.goto(DOWNLOAD_PAGE);
      const download = page.waitForEvent('download');
      await page.click('#d');
      expect((await download).suggestedFilename()).toBe('report.txt');
      const { downloadsDir } = provider.inspect(session.providerSessionId)!;
      await eventually(async () => (await readdir(downloadsDir)).some((f) => !f.endsWith('.crdownload')));
      const [saved] = (await readdir(downloadsDir)).filter((f) => !f.endsWith('.crdownload'));
      expect(await readFile(join(downloadsDir, saved!), 'utf8')).toBe('downloaded by the page');
    } finally {
      await browser.close();
      await provider.release(session.providerSessionId);
    }
  });

  it("Puppeteer connects, evaluates, uploads from the session's folder and is refused a host path", async () => {
    const session = await provider.create(browserRequest());
    const browser = await puppeteer.connect({ browserWSEndpoint: session.connectUrl, defaultViewport: null });
    try {
      const page = await browser.newPage();
      await page.goto(UPLOAD_PAGE);
      expect(await page.evaluate('1 + 1')).toBe(2);
      const { downloadsDir } = provider.inspect(session.providerSessionId)!;
      const inside = join(downloadsDir, 'inside.txt');
      await writeFile(inside, 'from the session folder');
      const input = (await page.$('#f'))!;
      await input.uploadFile(inside);
      await expect.poll(() => page.$eval('#out', (e) => e.textContent)).toBe('from the session folder');
      await expect(input.uploadFile('/etc/hostname')).rejects.toThrow(/downloads folder/);
    } finally {
      await browser.disconnect();
      await provider.release(session.providerSessionId);
    }
  });
});
