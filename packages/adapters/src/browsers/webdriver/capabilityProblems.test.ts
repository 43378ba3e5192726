import { describe, expect, it } from 'vitest';
import { capabilityProblems } from './capabilityProblems.ts';

/** What chromedriver 156 answers attached by `debuggerAddress` (platformName filled in by the local provider). */
const CHROMEDRIVER = {
  acceptInsecureCerts: false,
  browserName: 'chrome-headless-shell',
  browserVersion: '156.0.8078.114',
  'goog:chromeOptions': { debuggerAddress: '127.0.0.1:40917' },
  pageLoadStrategy: 'normal',
  platformName: 'linux',
  proxy: {},
  setWindowRect: false,
  strictFileInteractability: false,
  timeouts: { implicit: 0, pageLoad: 300000, script: 30000 },
  unhandledPromptBehavior: 'dismiss and notify',
  'webauthn:virtualAuthenticators': true,
};

/** The problems with `requested`, as planNewSession lists them in its message; none is a malformed value. */
function refusal(requested: Record<string, unknown>): string {
  const problems = capabilityProblems(requested, CHROMEDRIVER);
  expect(problems.length).toBeGreaterThan(0);
  expect(problems.filter((problem) => problem.invalid)).toEqual([]);
  return problems.map((problem) => `${problem.capability}: ${problem.why}`).join('; ');
}

describe('capabilityProblems', () => {
  it('accepts what the session is, or what changes nothing on a running browser', () => {
    for (const accepted of [
      { browserName: 'chromium', browserVersion: '156', platformName: 'LINUX' },
      { browserName: 'chrome-headless-shell', browserVersion: '156.0.8078.114', platformName: 'any' },
      {
        acceptInsecureCerts: false,
        pageLoadStrategy: 'normal',
        unhandledPromptBehavior: 'dismiss and notify',
      },
      { strictFileInteractability: false, proxy: {}, webSocketUrl: false, 'goog:loggingPrefs': {} },
      { 'se:name': 'checkout', 'se:recordVideo': true, 'bstack:options': { os: 'Windows' } },
      { 'webauthn:virtualAuthenticators': true, 'moz:firefoxOptions': { args: ['-headless'] } },
      {
        'goog:chromeOptions': {
          args: ['headless', '--disable-gpu', '--disable-dev-shm-usage', '--remote-allow-origins=*'],
          extensions: [],
          excludeSwitches: [],
          prefs: {},
          w3c: true,
          detach: false,
          useAutomationExtension: false,
        },
      },
    ])
      expect(capabilityProblems({ browserName: 'chrome', ...accepted }, CHROMEDRIVER)).toEqual([]);
  });

  it('refuses another browser, version or platform, naming what the session is', () => {
    expect(refusal({ browserName: 'firefox' })).toBe(
      'browserName "firefox": this session’s browser is chrome-headless-shell',
    );
    expect(refusal({ browserVersion: '120' })).toContain(
      'browserVersion "120": this session’s browser is version 156.0.8078.114',
    );
    expect(refusal({ browserVersion: '15' })).toContain('browserVersion "15"');
    expect(refusal({ platformName: 'windows' })).toContain(
      'platformName "windows": this session’s browser runs on linux',
    );
  });

  it('refuses what would need another browser, or a session made otherwise, naming each', () => {
    const message = refusal({
      'goog:chromeOptions': {
        args: ['--headless=new', '--window-size=1280,800', '--lang=fr'],
        extensions: ['UEsDBA=='],
        binary: '/opt/google/chrome/chrome',
        excludeSwitches: ['enable-automation'],
        mobileEmulation: { deviceName: 'Pixel 7' },
        debuggerAddress: '127.0.0.1:9222',
        frobnicate: true,
      },
      proxy: { proxyType: 'manual', httpProxy: 'proxy:8080' },
      acceptInsecureCerts: true,
      pageLoadStrategy: 'eager',
      unhandledPromptBehavior: 'accept',
      webSocketUrl: true,
      'goog:loggingPrefs': { browser: 'ALL' },
      'se:downloadsEnabled': true,
      'webauthn:virtualAuthenticators': false,
      nativeEvents: true,
    });
    for (const named of [
      'goog:chromeOptions.args "--window-size=1280,800": takes effect only when a browser starts',
      'goog:chromeOptions.args "--lang=fr"',
      'goog:chromeOptions.extensions: an extension loads when a browser starts',
      'goog:chromeOptions.binary: "/opt/google/chrome/chrome" would be another browser',
      'goog:chromeOptions.excludeSwitches',
      'goog:chromeOptions.mobileEmulation',
      'goog:chromeOptions.debuggerAddress',
      'goog:chromeOptions.frobnicate: is not a chromedriver option',
      'proxy {"proxyType":"manual","httpProxy":"proxy:8080"}: a browser’s proxy is set when it starts',
      'acceptInsecureCerts true: this session has false, fixed when it was made',
      'pageLoadStrategy "eager": this session has "normal"',
      'unhandledPromptBehavior "accept": this session has "dismiss and notify"',
      'webSocketUrl true: WebDriver BiDi is not served',
      'goog:loggingPrefs {"browser":"ALL"}: log levels are set when a WebDriver session is made',
      'se:downloadsEnabled true: downloads through WebDriver are not served',
      'webauthn:virtualAuthenticators false: this session has true',
      'nativeEvents true: is not a W3C capability',
    ])
      expect(message).toContain(named);
    expect(message).not.toContain('"--headless=new"');
  });
});
