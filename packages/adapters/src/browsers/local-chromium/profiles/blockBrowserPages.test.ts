import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { opensBrowserPage } from '../../cdp/opensBrowserPage.ts';
import { denyFileAccess } from '../extensions/denyFileAccess.ts';
import { BROWSER_PAGE_FILTERS, blockBrowserPages } from './blockBrowserPages.ts';

/** Whether a filter of the list blocks `url`, as Chromium matches `scheme://*` (any host, any path). */
const blocked = (url: string) =>
  BROWSER_PAGE_FILTERS.some((filter) => `${new URL(url).protocol}//*` === filter);

describe('blockBrowserPages', () => {
  let profile: string;

  beforeEach(async () => {
    profile = await mkdtemp(join(tmpdir(), 'browserdeck-block-pages-'));
  });

  afterEach(() => rm(profile, { recursive: true, force: true }));

  const preferences = async () => JSON.parse(await readFile(join(profile, 'Default', 'Preferences'), 'utf8'));

  it("blocks every scheme of the browser's own pages, and none a client opens", () => {
    for (const url of [
      'chrome://extensions/',
      'chrome://omnibox-popup.top-chrome/',
      'chrome://new-tab-page/',
      'chrome-untrusted://print/',
      'chrome-search://local-ntp/',
      'chrome-distiller://abc/?url=https://example.com',
      'devtools://devtools/bundled/inspector.html',
    ]) {
      expect(opensBrowserPage(url), url).toBe(true);
      expect(blocked(url), url).toBe(true);
    }
    for (const url of [
      'https://example.com/chrome://extensions',
      'http://127.0.0.1:8080/',
      'about:blank',
      'data:text/html,x',
      'chrome-extension://abcdefghijklmnopabcdefghijklmnop/page.html',
    ])
      expect(blocked(url), url).toBe(false);
  });

  it('writes the blocklist beside what the profile holds, over a changed one, dropping an allowlist', async () => {
    await mkdir(join(profile, 'Default'));
    await writeFile(
      join(profile, 'Default', 'Preferences'),
      JSON.stringify({
        profile: { name: 'ctx' },
        policy: { url_blocklist: [], url_allowlist: ['chrome://extensions'], other: 1 },
      }),
    );
    await blockBrowserPages(profile, null);
    await denyFileAccess(profile, ['x'], null);
    expect(await preferences()).toEqual({
      profile: { name: 'ctx' },
      policy: { url_blocklist: [...BROWSER_PAGE_FILTERS], other: 1 },
      extensions: { settings: { x: { newAllowFileAccess: false } } },
    });
  });

  it('makes the preferences of a fresh profile', async () => {
    await blockBrowserPages(profile, null);
    expect(await preferences()).toEqual({ policy: { url_blocklist: [...BROWSER_PAGE_FILTERS] } });
  });
});
