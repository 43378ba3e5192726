import { describe, expect, it } from 'vitest';
import { planNewSession } from './planNewSession.ts';

/** What chromedriver 156 answers attached by `debuggerAddress` (platformName filled in by the local provider). */
const CHROMEDRIVER = {
  acceptInsecureCerts: false,
  browserName: 'chrome-headless-shell',
  browserVersion: '156.0.8078.114',
  chrome: { chromedriverVersion: '156.0.8078.114 (ea19f97…)' },
  'fedcm:accounts': true,
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
const session = { webdriverSessionId: 'wd-1', capabilities: CHROMEDRIVER };

/** The bodies the clients send for a plain Chrome session, as captured from them. */
const CLIENTS: Record<string, unknown> = {
  'selenium-webdriver 4.49 Builder().forBrowser("chrome")': {
    capabilities: {
      firstMatch: [{}],
      alwaysMatch: { browserName: 'chrome', 'se:remoteUrl': 'http://127.0.0.1:3000/v1/local/…' },
    },
  },
  'selenium-webdriver with chrome.Options().addArguments("--headless=new", "--no-sandbox")': {
    capabilities: {
      firstMatch: [{}],
      alwaysMatch: {
        browserName: 'chrome',
        'goog:chromeOptions': { args: ['--headless=new', '--no-sandbox'] },
      },
    },
  },
  'Python webdriver.Remote(url, options=ChromeOptions())': {
    capabilities: {
      firstMatch: [{}],
      alwaysMatch: {
        browserName: 'chrome',
        pageLoadStrategy: 'normal',
        'goog:chromeOptions': { extensions: [], args: [] },
      },
    },
  },
  'Java new RemoteWebDriver(url, new ChromeOptions())': {
    desiredCapabilities: { browserName: 'chrome', 'goog:chromeOptions': { args: [], extensions: [] } },
    capabilities: {
      firstMatch: [{ browserName: 'chrome', 'goog:chromeOptions': { args: [], extensions: [] } }],
    },
  },
  'a Selenium 3 client (desiredCapabilities only)': {
    desiredCapabilities: {
      browserName: 'chrome',
      version: '',
      platform: 'ANY',
      javascriptEnabled: true,
      chromeOptions: { args: ['--disable-gpu'] },
    },
  },
};

/** The `session not created` message for `body`, or a failure naming what was planned instead. */
function refusal(body: unknown): string {
  const plan = planNewSession(body, session);
  expect(plan).toMatchObject({ kind: 'refuse', status: 500, error: 'session not created' });
  return plan.kind === 'refuse' ? plan.message : '';
}

const chrome = (extra: Record<string, unknown>) => ({
  capabilities: { alwaysMatch: { browserName: 'chrome', ...extra } },
});

describe('planNewSession', () => {
  it.each(Object.entries(CLIENTS))('answers %s with the session’s own WebDriver session', (_client, body) => {
    const plan = planNewSession(body, session);
    expect(plan).toMatchObject({ kind: 'attach', answer: { value: { sessionId: 'wd-1' } } });
  });

  it('answers the capabilities the session has, without the addresses of its machinery', () => {
    const grid = {
      webdriverSessionId: 'grid-1',
      capabilities: {
        browserName: 'chrome',
        browserVersion: '156.0.8078.114',
        platformName: 'linux',
        'se:cdp': 'ws://10.0.0.7:4444/session/grid-1/se/cdp',
        'se:vnc': 'ws://10.0.0.7:4444/session/grid-1/se/vnc',
        'se:cdpVersion': '156.0.8078.114',
        'se:webDriverExecutable': '/usr/bin/chromedriver',
        'goog:processID': 4583,
        chrome: { chromedriverVersion: '156', userDataDir: '/tmp/.org.chromium.Chromium.x' },
        'goog:chromeOptions': { debuggerAddress: 'localhost:39211' },
      },
    };
    const plan = planNewSession(CLIENTS['Python webdriver.Remote(url, options=ChromeOptions())'], grid);
    expect(plan).toEqual({
      kind: 'attach',
      timeouts: { implicit: 0, pageLoad: 300000, script: 30000 },
      answer: {
        value: {
          sessionId: 'grid-1',
          capabilities: {
            browserName: 'chrome',
            browserVersion: '156.0.8078.114',
            platformName: 'linux',
            'se:cdpVersion': '156.0.8078.114',
            chrome: { chromedriverVersion: '156' },
            'goog:chromeOptions': {},
            timeouts: { implicit: 0, pageLoad: 300000, script: 30000 },
          },
        },
      },
    });
  });

  it('sets the requested timeouts over the ones the session was made with, and answers them', () => {
    const plan = planNewSession(chrome({ timeouts: { implicit: 1500, script: null } }), session);
    const timeouts = { implicit: 1500, pageLoad: 300000, script: null };
    expect(plan).toMatchObject({
      kind: 'attach',
      timeouts,
      answer: { value: { capabilities: { timeouts } } },
    });
    expect(planNewSession(chrome({}), session)).toMatchObject({
      timeouts: { implicit: 0, pageLoad: 300000, script: 30000 },
    });
  });

  it('refuses, naming the session’s browser and each capability it cannot honour (session not created, 500)', () => {
    expect(
      refusal({ capabilities: { alwaysMatch: { browserName: 'firefox', proxy: { proxyType: 'system' } } } }),
    ).toBe(
      'This endpoint serves one running browser (chrome-headless-shell 156.0.8078.114 on linux), which cannot ' +
        'honour the requested capabilities: browserName "firefox": this session’s browser is chrome-headless-shell; ' +
        'proxy {"proxyType":"system"}: a browser’s proxy is set when it starts: give the Browserdeck session its ' +
        'proxies when you create it.',
    );
  });

  it('answers the first firstMatch set the session honours, and names each set it refuses', () => {
    const either = {
      capabilities: {
        alwaysMatch: { pageLoadStrategy: 'normal' },
        firstMatch: [{ browserName: 'firefox' }, { browserName: 'chrome' }],
      },
    };
    expect(planNewSession(either, session)).toMatchObject({ kind: 'attach' });
    const neither = { capabilities: { firstMatch: [{ browserName: 'firefox' }, { browserName: 'safari' }] } };
    expect(refusal(neither)).toMatch(
      /any of the requested capability sets: firstMatch\[0\]: browserName "firefox".*; firstMatch\[1\]: browserName "safari"/,
    );
  });

  it('reads a legacy desiredCapabilities by its W3C names, and ignores it beside capabilities', () => {
    expect(refusal({ desiredCapabilities: { browserName: 'chrome', version: '99' } })).toContain(
      'browserVersion "99"',
    );
    expect(refusal({ desiredCapabilities: { chromeOptions: { args: ['--kiosk'] } } })).toContain(
      'goog:chromeOptions.args "--kiosk"',
    );
    expect(
      planNewSession(
        { desiredCapabilities: { browserName: 'firefox' }, capabilities: { alwaysMatch: {} } },
        session,
      ),
    ).toMatchObject({ kind: 'attach' });
  });

  it('answers a malformed request with invalid argument (400), nulls being no capability', () => {
    for (const body of [
      [],
      { capabilities: [] },
      { capabilities: { alwaysMatch: 'chrome' } },
      { capabilities: { firstMatch: [] } },
      { capabilities: { firstMatch: [{}, 'x'] } },
      { capabilities: { alwaysMatch: { browserName: 'chrome' }, firstMatch: [{ browserName: 'chrome' }] } },
      chrome({ timeouts: { implicit: -1 } }),
      chrome({ timeouts: { idle: 5 } }),
      chrome({ acceptInsecureCerts: 'yes' }),
      chrome({ pageLoadStrategy: 'fast' }),
      chrome({ browserVersion: 156 }),
      chrome({ 'goog:chromeOptions': { args: '--headless' } }),
    ])
      expect(planNewSession(body, session), JSON.stringify(body)).toMatchObject({
        kind: 'refuse',
        status: 400,
        error: 'invalid argument',
      });
    expect(
      planNewSession(
        {
          capabilities: {
            alwaysMatch: { browserName: null, proxy: null },
            firstMatch: [{ browserName: 'chrome' }],
          },
        },
        session,
      ),
    ).toMatchObject({ kind: 'attach' });
    expect(planNewSession({}, session)).toMatchObject({ kind: 'attach' });
  });
});
