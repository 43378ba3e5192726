/** A scheme as Chromium reads it: a letter, then letters, digits, `+`, `-` and `.`, before the first `:`. */
const SCHEME = /^([A-Za-z][A-Za-z0-9+.-]*):/;
/** What Chromium's URL parser ignores: C0 controls and space at either end, tab and line breaks anywhere. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are exactly what the URL parser trims
const ENDS = /^[\u0000-\u0020]+|[\u0000-\u0020]+$/g;
const TAB_OR_NEWLINE = /[\t\n\r]/g;
/** Schemes that wrap another URL whose origin or page is what opens: judged by the URL inside. */
const WRAPPERS = new Set(['view-source', 'blob']);

/**
 * True for a URL that opens one of the browser's own pages, however it is spelled: any `chrome:`
 * (`chrome://extensions`, `CHROME:extensions`, `chrome:///Extensions`, `chrome://%65xtensions`, all
 * of which Chromium canonicalises to `chrome://extensions/`), `chrome-untrusted:`, `chrome-search:`
 * and every other `chrome-…:` scheme but `chrome-extension:`, `devtools:`, and `about:` other than
 * `about:blank` (Chromium rewrites `about:x` to `chrome://x`), also behind `view-source:` or
 * `blob:`. Judged by the scheme alone, read as Chromium's parser reads it (ends trimmed, tabs and line
 * breaks dropped, case ignored), so no spelling of the page's name can matter: those pages carry
 * private APIs (`chrome://extensions`' `developerPrivate` turns an extension's `file:` access back on
 * or loads another, `chrome://flags` is saved in a context's profile) and no client needs one
 * (Playwright, Puppeteer and Stagehand open `about:blank`, Stagehand also `chrome-extension://`).
 * A URL without a scheme is not one: Chromium refuses to open it.
 */
export function opensBrowserPage(url: string): boolean {
  const cleaned = url.replace(TAB_OR_NEWLINE, '').replace(ENDS, '');
  const match = SCHEME.exec(cleaned);
  if (!match) return false;
  const scheme = match[1]!.toLowerCase();
  const rest = cleaned.slice(match[0].length);
  if (WRAPPERS.has(scheme)) return opensBrowserPage(rest);
  // `about:blank#stagehand-client-connection` is Stagehand's; about:BLANK and about://blank are not blank.
  if (scheme === 'about') return !/^blank(?:[?#]|$)/.test(rest);
  if (scheme === 'devtools') return true;
  return scheme.startsWith('chrome') && scheme !== 'chrome-extension';
}
