/**
 * Makes `navigator.language` a tag `Intl` accepts. Chromium on a Linux host whose locale is `C`
 * reports `en-US@posix`, which `Intl.NumberFormat` refuses with a RangeError, and uPlot builds its
 * number formatter from `navigator.language` when it loads: import this module before uPlot. A
 * valid tag is left alone; an invalid one is replaced by its part before `@` (or `en-US`).
 */
function usableLanguage(tag: string): string | undefined {
  try {
    new Intl.NumberFormat(tag);
    return undefined;
  } catch {
    const base = tag.split('@')[0] ?? '';
    try {
      return Intl.getCanonicalLocales(base)[0] ?? 'en-US';
    } catch {
      return 'en-US';
    }
  }
}

if (typeof navigator !== 'undefined') {
  const replacement = usableLanguage(navigator.language);
  if (replacement) Object.defineProperty(navigator, 'language', { value: replacement, configurable: true });
}
