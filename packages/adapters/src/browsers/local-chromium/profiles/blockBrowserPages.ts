import { editPreferences, preferenceObject } from './editPreferences.ts';

/**
 * Every scheme of the browser's own pages (Chromium's WebUI: `chrome:`, `chrome-untrusted:`,
 * `devtools:`, the new-tab page's `chrome-search:`, the reader's `chrome-distiller:`), as URL
 * blocklist filters. `about:` pages are `chrome:` ones (Chromium rewrites `about:x` to
 * `chrome://x`), and the filters judge the URL behind `view-source:`.
 */
export const BROWSER_PAGE_FILTERS: readonly string[] = [
  'chrome://*',
  'chrome-untrusted://*',
  'chrome-search://*',
  'chrome-distiller://*',
  'devtools://*',
];

/**
 * Writes into the profile's preferences, before the browser starts, the URL blocklist Chromium's
 * `URLBlocklist` policy sets (`policy.url_blocklist`, read at start-up before any navigation): every
 * navigation to one of the browser's own pages (`BROWSER_PAGE_FILTERS`), whoever starts it (a
 * client's `Page.navigate`, an extension's `chrome.tabs.update` or `create`, a page, the browser's
 * own UI), then ends on Chromium's error page. So no such page ever commits, and no script of a
 * client (a new-document script registered before, `Runtime.evaluate` after, an attach or
 * auto-attach) can run in one: `chrome://extensions`' `developerPrivate` could turn an extension's
 * `file:` access back on. A per-profile setting rather than the policy file, which is host-wide; an
 * allowlist left in the profile is dropped (its more specific entries would win). A host's managed
 * `URLBlocklist` or `URLAllowlist` policy would replace it (docs/security.md).
 */
export function blockBrowserPages(
  profileDir: string,
  owner: { uid: number; gid: number } | null,
): Promise<void> {
  return editPreferences(profileDir, owner, (preferences) => {
    const policy = preferenceObject(preferences, 'policy');
    policy.url_blocklist = [...BROWSER_PAGE_FILTERS];
    delete policy.url_allowlist;
  });
}
