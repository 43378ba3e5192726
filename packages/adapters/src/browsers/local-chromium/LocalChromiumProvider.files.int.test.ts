import { access, readdir, readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { browserRequest, startLocalProvider } from '@browserdeck/testing/local-chromium';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { zipEntries } from '../../../../../test/zipFiles.ts';
import type { LocalChromiumProvider } from './LocalChromiumProvider.ts';

/** The test site: a page with two download links and a file input that shows what it reads. */
const SITE: Record<string, { type: string; body: string; attachment?: string }> = {
  '/files': {
    type: 'text/html',
    body: `<!doctype html><title>files</title>
      <a id="one" href="/one.txt">one</a> <a id="two" href="/two.csv">two</a>
      <input id="pick" type="file">
      <script>
        document.getElementById('pick').addEventListener('change', (event) => {
          const reader = new FileReader();
          reader.onload = () => { document.title = 'read: ' + reader.result; };
          reader.readAsText(event.target.files[0]);
        });
      </script>`,
  },
  '/one.txt': { type: 'text/plain', body: 'the first file', attachment: 'one.txt' },
  '/two.csv': { type: 'text/csv', body: 'a,b\n1,2\n', attachment: 'two.csv' },
};

async function read(archive: AsyncIterable<Uint8Array> | null): Promise<Record<string, string>> {
  if (!archive) throw new Error('no downloads');
  const chunks: Uint8Array[] = [];
  for await (const chunk of archive) chunks.push(chunk);
  return zipEntries(Buffer.concat(chunks));
}

async function* text(value: string): AsyncGenerator<Uint8Array> {
  yield Buffer.from(value);
}

describe('LocalChromiumProvider: downloads and uploads (real Chromium)', () => {
  let local: Awaited<ReturnType<typeof startLocalProvider>>;
  let provider: LocalChromiumProvider;
  let site: Server;
  let siteUrl: string;

  beforeAll(async () => {
    site = createServer((req, res) => {
      const page = SITE[new URL(req.url ?? '/', 'http://x').pathname];
      if (!page) return res.writeHead(404).end();
      res.writeHead(200, {
        'Content-Type': page.type,
        ...(page.attachment ? { 'Content-Disposition': `attachment; filename="${page.attachment}"` } : {}),
      });
      res.end(page.body);
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    // The test site is on loopback, which the egress proxy refuses unless allowed.
    local = await startLocalProvider({ egress: { allow: ['127.0.0.1/32'] }, downloadsRetentionSec: 600 });
    provider = local.provider;
  }, 60_000);

  afterAll(async () => {
    await local?.close();
    await new Promise((resolve) => site?.close(resolve));
  });

  it('zips a page’s two downloads, takes an upload into a file input, and keeps the downloads after the end', async () => {
    const request = browserRequest({ keepAlive: true });
    const session = await provider.create(request);
    const id = session.providerSessionId;
    expect(await read(await provider.capabilities.files!.downloads(id))).toEqual({});
    const browser = await chromium.connectOverCDP(session.connectUrl);
    try {
      const context = browser.contexts()[0]!;
      const page = context.pages()[0] ?? (await context.newPage());
      await page.goto(`${siteUrl}/files`);
      for (const link of ['#one', '#two']) {
        const download = page.waitForEvent('download');
        await page.click(link);
        // Completed in the browser; saveAs() would look for it on this machine's disk instead.
        expect(await (await download).failure()).toBeNull();
      }
      expect(await read(await provider.capabilities.files!.downloads(id))).toEqual({
        'one.txt': 'the first file',
        'two.csv': 'a,b\n1,2\n',
      });

      const first = await provider.capabilities.files!.upload(id, {
        name: 'note.txt',
        content: text('uploaded through the API'),
      });
      const second = await provider.capabilities.files!.upload(id, {
        name: 'note.txt',
        content: text('the second note'),
      });
      expect(first).toEqual({
        name: 'note.txt',
        size: 24,
        path: expect.stringMatching(/\/Uploads\/note\.txt$/),
      });
      expect(second).toMatchObject({ name: 'note (2).txt', size: 15 });
      await page.setInputFiles('#pick', first!.path);
      await expect.poll(() => page.title(), { timeout: 10_000 }).toBe('read: uploaded through the API');
      await page.setInputFiles('#pick', second!.path);
      await expect.poll(() => page.title(), { timeout: 10_000 }).toBe('read: the second note');
      // Uploads are not downloads.
      expect(Object.keys(await read(await provider.capabilities.files!.downloads(id)))).toEqual([
        'one.txt',
        'two.csv',
      ]);
    } finally {
      await browser.close().catch(() => {});
    }

    const profileDir = provider.inspect(id)?.profileDir;
    await provider.release(id);
    expect(
      await provider.capabilities.files!.upload(id, { name: 'late.txt', content: text('x') }),
    ).toBeNull();
    // Kept past the session's end, in the data folder, while its profile (with its uploads) is gone.
    expect(await read(await provider.capabilities.files!.downloads(id))).toEqual({
      'one.txt': 'the first file',
      'two.csv': 'a,b\n1,2\n',
    });
    expect(await readdir(join(local.dataDir, 'downloads', id))).toEqual(['one.txt', 'two.csv']);
    // Counted against the session's account: recorded beside the folder, not in it.
    expect(await readFile(join(local.dataDir, 'downloads', '.owners', id), 'utf8')).toBe(request.ownerId);
    if (profileDir) await expect(access(profileDir)).rejects.toThrow();
  }, 90_000);

  it('answers null for a session it never had, and an empty zip for an ended one without downloads', async () => {
    expect(await provider.capabilities.files!.downloads('0190b000-0000-7000-8000-00000000dead')).toBeNull();
    expect(
      await provider.capabilities.files!.upload('0190b000-0000-7000-8000-00000000dead', {
        name: 'a',
        content: text('x'),
      }),
    ).toBeNull();
    const session = await provider.create(browserRequest());
    await provider.release(session.providerSessionId);
    expect(await read(await provider.capabilities.files!.downloads(session.providerSessionId))).toEqual({});
  }, 60_000);
});
