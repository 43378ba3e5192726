/** JSON Wire Protocol names and their W3C equivalents. */
const RENAMED: Readonly<Record<string, string>> = {
  version: 'browserVersion',
  platform: 'platformName',
  chromeOptions: 'goog:chromeOptions',
  acceptSslCerts: 'acceptInsecureCerts',
  unexpectedAlertBehaviour: 'unhandledPromptBehavior',
  loggingPrefs: 'goog:loggingPrefs',
};

/**
 * JSON Wire Protocol feature flags: they described what a driver could do, and asked for nothing
 * a session can lack (every Chromium session has scripts, screenshots, storage, …).
 */
const FEATURE_FLAGS = new Set([
  'javascriptEnabled',
  'takesScreenshot',
  'handlesAlerts',
  'databaseEnabled',
  'locationContextEnabled',
  'applicationCacheEnabled',
  'browserConnectionEnabled',
  'cssSelectorsEnabled',
  'webStorageEnabled',
  'rotatable',
  'nativeEvents',
  'takesHeapSnapshot',
  'hasTouchScreen',
  'networkConnectionEnabled',
]);

/**
 * A legacy `desiredCapabilities` object (Selenium 2 and 3 clients) as the W3C capabilities it
 * means: its names renamed (`version` → `browserVersion`, `platform` → `platformName`,
 * `chromeOptions` → `goog:chromeOptions`, …; a W3C name it also has wins), its feature flags left
 * out. Any other name is kept as it is, so matching names it when it is not a W3C capability.
 */
export function legacyCapabilities(desired: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const w3c: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(desired)) {
    if (FEATURE_FLAGS.has(name)) continue;
    const renamed = RENAMED[name];
    if (renamed === undefined) w3c[name] = value;
    else if (!(renamed in desired)) w3c[renamed] = value;
  }
  return w3c;
}
