import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import {
  type CapturedNetworkEvent,
  HAR_CDP_EVENTS,
  type Har,
  type HarEntry,
  harOfCapture,
  REDACTED,
} from './harOfCapture.ts';

const require = createRequire(import.meta.url);
const CREATOR = { name: 'browserdeck', version: '0.1.0' };
/** Wall clock (seconds since the epoch) at monotonic time 0 of the synthetic browser. */
const WALL_AT_ZERO = 1_780_000_000;
const START = 5000;

interface Exchange {
  readonly tab: number;
  readonly requestId: string;
  readonly url: string;
  /** Seconds after START. */
  readonly at: number;
  readonly frameId?: string;
  readonly type?: string;
  readonly headers?: Record<string, string>;
  readonly status?: number;
  readonly responseHeaders?: Record<string, string>;
}

function event(tab: number, method: string, params: Record<string, unknown>): CapturedNetworkEvent {
  return { tab, method, params };
}

function requestWillBeSent(x: Exchange): CapturedNetworkEvent {
  const timestamp = START + x.at;
  return event(x.tab, 'Network.requestWillBeSent', {
    requestId: x.requestId,
    loaderId: `loader-${x.tab}`,
    documentURL: x.url,
    request: {
      url: x.url,
      method: 'GET',
      headers: { Accept: '*/*', 'User-Agent': 'Chrome/147', ...x.headers },
      initialPriority: 'High',
      referrerPolicy: 'strict-origin-when-cross-origin',
    },
    timestamp,
    wallTime: WALL_AT_ZERO + timestamp,
    initiator: { type: 'other' },
    redirectHasExtraInfo: false,
    type: x.type ?? 'Document',
    frameId: x.frameId ?? 'MAIN',
    hasUserGesture: false,
  });
}

function responseReceived(x: Exchange): CapturedNetworkEvent {
  const requestTime = START + x.at + 0.001;
  return event(x.tab, 'Network.responseReceived', {
    requestId: x.requestId,
    loaderId: `loader-${x.tab}`,
    timestamp: requestTime + 0.05,
    type: x.type ?? 'Document',
    frameId: x.frameId ?? 'MAIN',
    response: {
      url: x.url,
      status: x.status ?? 200,
      statusText: x.status === 404 ? 'Not Found' : 'OK',
      headers: { 'content-type': 'text/html', ...x.responseHeaders },
      mimeType: 'text/html',
      connectionReused: false,
      connectionId: 42,
      remoteIPAddress: '203.0.113.10',
      remotePort: 443,
      fromDiskCache: false,
      fromServiceWorker: false,
      encodedDataLength: 120,
      timing: {
        requestTime,
        proxyStart: -1,
        proxyEnd: -1,
        dnsStart: 0.5,
        dnsEnd: 4,
        connectStart: 4,
        connectEnd: 20,
        sslStart: 10,
        sslEnd: 20,
        sendStart: 20.5,
        sendEnd: 21,
        receiveHeadersStart: 45,
        receiveHeadersEnd: 46,
      },
      protocol: 'h2',
      securityState: 'secure',
    },
  });
}

function loadingFinished(x: Exchange, after = 0.08): CapturedNetworkEvent {
  return event(x.tab, 'Network.loadingFinished', {
    requestId: x.requestId,
    timestamp: START + x.at + after,
    encodedDataLength: 2048,
  });
}

function loadingFailed(x: Exchange, errorText: string): CapturedNetworkEvent {
  return event(x.tab, 'Network.loadingFailed', {
    requestId: x.requestId,
    timestamp: START + x.at + 0.07,
    type: x.type ?? 'Document',
    errorText,
    canceled: errorText === 'net::ERR_ABORTED',
  });
}

function exchange(x: Exchange): CapturedNetworkEvent[] {
  return [
    requestWillBeSent(x),
    responseReceived(x),
    event(x.tab, 'Network.dataReceived', {
      requestId: x.requestId,
      timestamp: START + x.at + 0.06,
      dataLength: 4096,
      encodedDataLength: 2048,
    }),
    loadingFinished(x),
  ];
}

function pageLoad(tab: number, at: number): CapturedNetworkEvent[] {
  return [
    event(tab, 'Page.domContentEventFired', { timestamp: START + at }),
    event(tab, 'Page.loadEventFired', { timestamp: START + at + 0.1 }),
  ];
}

function frameStartedLoading(tab: number, frameId = 'MAIN'): CapturedNetworkEvent {
  return event(tab, 'Page.frameStartedLoading', { frameId });
}

/** Two tabs with the same frame and request ids, their events interleaved as a capture records them. */
function twoTabs(): CapturedNetworkEvent[] {
  const shop = { tab: 0, requestId: '1', url: 'https://shop.test/', at: 0 };
  const docs = { tab: 1, requestId: '1', url: 'https://docs.test/guide', at: 0.2, status: 404 };
  const script = { tab: 0, requestId: '2', url: 'https://shop.test/app.js', at: 0.3, type: 'Script' };
  const style = { tab: 1, requestId: '2', url: 'https://docs.test/style.css', at: 0.6, type: 'Stylesheet' };
  return [
    frameStartedLoading(0),
    ...exchange(shop),
    frameStartedLoading(1),
    ...exchange(docs),
    ...exchange(script),
    ...pageLoad(0, 0.5),
    ...exchange(style),
    ...pageLoad(1, 0.7),
  ];
}

/** One tab's request carrying credentials: headers, cookies (also in the extra info), userinfo. */
function withCredentials(): CapturedNetworkEvent[] {
  const login: Exchange = {
    tab: 0,
    requestId: '7',
    url: 'https://alice:s3cret@shop.test/account?tab=orders',
    at: 0,
    headers: { Authorization: 'Bearer token-123', 'Proxy-Authorization': 'Basic cHJveHk6cHc=' },
    status: 302,
    responseHeaders: {
      'Set-Cookie': 'sid=fresh-456; Path=/; Secure; HttpOnly',
      Location: 'https://bob:hunter2@shop.test/next',
    },
  };
  const cookie = {
    domain: 'shop.test',
    path: '/',
    size: 15,
    httpOnly: true,
    secure: true,
    priority: 'Medium',
  };
  return [
    frameStartedLoading(0),
    requestWillBeSent(login),
    event(0, 'Network.requestWillBeSentExtraInfo', {
      requestId: '7',
      headers: { cookie: 'sid=old-789; theme=dark' },
      associatedCookies: [
        {
          blockedReasons: [],
          cookie: { ...cookie, name: 'sid', value: 'old-789', expires: -1, session: true },
        },
        {
          blockedReasons: [],
          cookie: { ...cookie, name: 'theme', value: 'dark', expires: 1_790_000_000, session: false },
        },
      ],
      connectTiming: { requestTime: START },
    }),
    ...exchange(login).slice(1),
  ];
}

function entry(har: Har, url: string): HarEntry {
  const found = har.log.entries.find((e) => e.request.url === url);
  if (!found) throw new Error(`No entry for ${url}`);
  return found;
}

function header(list: { name: string; value: string }[], name: string): string | undefined {
  return list.find((h) => h.name.toLowerCase() === name)?.value;
}

describe('harOfCapture', () => {
  it('builds each tab on its own and merges them, pages unique across tabs, entries by start time', () => {
    const har = harOfCapture(twoTabs(), { sensitive: false, creator: CREATOR });

    expect(har.log.version).toBe('1.2');
    expect(har.log.creator).toEqual(CREATOR);
    expect(har.log.pages.map((p) => [p.id, p._tab, p.title])).toEqual([
      ['tab_0_page_1', 0, 'https://shop.test/'],
      ['tab_1_page_1', 1, 'https://docs.test/guide'],
    ]);
    expect(har.log.pages[0]?.pageTimings).toEqual({ onContentLoad: 500, onLoad: 600 });
    expect(har.log.entries.map((e) => [e._tab, e.request.url, e.response.status, e.pageref])).toEqual([
      [0, 'https://shop.test/', 200, 'tab_0_page_1'],
      [1, 'https://docs.test/guide', 404, 'tab_1_page_1'],
      [0, 'https://shop.test/app.js', 200, 'tab_0_page_1'],
      [1, 'https://docs.test/style.css', 200, 'tab_1_page_1'],
    ]);
    const first = entry(har, 'https://shop.test/');
    expect(first.startedDateTime).toBe(new Date((WALL_AT_ZERO + START + 0.001) * 1000).toISOString());
    expect(first.serverIPAddress).toBe('203.0.113.10');
    expect(first.timings).toMatchObject({ dns: 3.5, connect: 16, ssl: 10, send: 0.5, wait: 25 });
    expect(first.time).toBeGreaterThan(first.timings.wait);
    expect(first.response.content.size).toBe(4096);
  });

  it('redacts credential headers and cookie values by default, and no URL keeps its userinfo', () => {
    const har = harOfCapture(withCredentials(), { sensitive: false, creator: CREATOR });

    const login = entry(har, 'https://shop.test/account?tab=orders');
    expect(header(login.request.headers, 'authorization')).toBe(REDACTED);
    expect(header(login.request.headers, 'cookie')).toBe(REDACTED);
    expect(header(login.request.headers, 'accept')).toBe('*/*');
    expect(header(login.response.headers, 'set-cookie')).toBe(REDACTED);
    expect(login.request.cookies.map((c) => [c.name, c.value])).toEqual([
      ['sid', REDACTED],
      ['theme', REDACTED],
    ]);
    expect(login.response.cookies.map((c) => [c.name, c.value])).toEqual([['sid', REDACTED]]);
    expect(login.request.queryString).toEqual([{ name: 'tab', value: 'orders' }]);
    expect(login.response.redirectURL).toBe('https://shop.test/next');
    expect(har.log.pages[0]?.title).toBe('https://shop.test/account?tab=orders');
    for (const secret of [
      'token-123',
      'old-789',
      'fresh-456',
      'cHJveHk6cHc=',
      'alice',
      's3cret',
      'hunter2',
    ]) {
      expect(JSON.stringify(har)).not.toContain(secret);
    }
  });

  it('keeps sensitive values when asked, but never proxy credentials or URL userinfo', () => {
    const har = harOfCapture(withCredentials(), { sensitive: true, creator: CREATOR });

    const login = entry(har, 'https://shop.test/account?tab=orders');
    expect(header(login.request.headers, 'authorization')).toBe('Bearer token-123');
    expect(header(login.request.headers, 'cookie')).toBe('sid=old-789; theme=dark');
    expect(header(login.response.headers, 'set-cookie')).toBe('sid=fresh-456; Path=/; Secure; HttpOnly');
    expect(header(login.request.headers, 'proxy-authorization')).toBe(REDACTED);
    expect(login.request.cookies.map((c) => [c.name, c.value, c.expires])).toEqual([
      ['sid', 'old-789', undefined],
      ['theme', 'dark', new Date(1_790_000_000 * 1000).toISOString()],
    ]);
    expect(login.response.cookies[0]).toMatchObject({ name: 'sid', value: 'fresh-456', httpOnly: true });
    for (const secret of ['cHJveHk6cHc=', 'alice', 's3cret', 'hunter2']) {
      expect(JSON.stringify(har)).not.toContain(secret);
    }
  });

  it('keeps failed requests with their error, answered or not', () => {
    const unresolved = { tab: 0, requestId: '3', url: 'https://gone.test/logo.png', at: 0.2, type: 'Image' };
    const aborted = { tab: 0, requestId: '4', url: 'https://shop.test/track', at: 0.25, type: 'Ping' };
    const reset = { tab: 0, requestId: '5', url: 'https://shop.test/video.mp4', at: 0.3, type: 'Media' };
    const events = [
      frameStartedLoading(0),
      ...exchange({ tab: 0, requestId: '1', url: 'https://shop.test/', at: 0 }),
      requestWillBeSent(unresolved),
      loadingFailed(unresolved, 'net::ERR_NAME_NOT_RESOLVED'),
      requestWillBeSent(aborted),
      loadingFailed(aborted, 'net::ERR_ABORTED'),
      requestWillBeSent(reset),
      responseReceived(reset),
      loadingFailed(reset, 'net::ERR_CONNECTION_RESET'),
    ];

    const har = harOfCapture(events, { sensitive: false, creator: CREATOR });

    expect(har.log.entries.map((e) => [e.request.url, e.response.status, e.response._error])).toEqual([
      ['https://shop.test/', 200, undefined],
      ['https://gone.test/logo.png', 0, 'net::ERR_NAME_NOT_RESOLVED'],
      ['https://shop.test/track', 0, 'net::ERR_ABORTED'],
      ['https://shop.test/video.mp4', 200, 'net::ERR_CONNECTION_RESET'],
    ]);
    const failed = entry(har, 'https://gone.test/logo.png');
    expect(failed.connection).toBeUndefined();
    expect(failed.serverIPAddress).toBeUndefined();
    expect(failed.pageref).toBe('tab_0_page_1');
    expect(entry(har, 'https://shop.test/video.mp4').timings.receive).toBe(70 - 1 - 46);
  });

  it('keeps the requests of a tab captured before any page event, once each', () => {
    const first = { tab: 0, requestId: '1', url: 'https://shop.test/', at: 0 };
    const framed = { tab: 0, requestId: '2', url: 'https://ads.test/frame', at: 0.2, frameId: 'AD' };
    const pageless = { tab: 1, requestId: '1', url: 'https://docs.test/', at: 0.1 };
    const events = [
      ...exchange(first),
      frameStartedLoading(0, 'AD'),
      ...exchange(framed),
      ...exchange(pageless),
    ];

    const har = harOfCapture(events, { sensitive: false, creator: CREATOR });

    expect(har.log.entries.map((e) => [e.request.url, e.pageref])).toEqual([
      ['https://shop.test/', 'tab_0_page_1'],
      ['https://docs.test/', 'tab_1_page_1'],
      ['https://ads.test/frame', 'tab_0_page_2'],
    ]);
  });

  it('drops malformed and foreign events instead of throwing', () => {
    const good = { tab: 0, requestId: '1', url: 'https://shop.test/', at: 0 };
    const later = { tab: 0, requestId: '3', url: 'https://shop.test/later', at: 0.4 };
    const noInitiator = requestWillBeSent({ tab: 0, requestId: '2', url: 'https://shop.test/x', at: 0.1 });
    const { initiator: _, ...withoutInitiator } = noInitiator.params;
    const { connectionId: __, ...brokenResponse } = responseReceived(later).params
      .response as object as Record<string, unknown>;
    const events = [
      frameStartedLoading(0),
      ...exchange(good),
      { ...noInitiator, params: withoutInitiator },
      event(0, 'Network.responseReceived', { requestId: '1', response: null }),
      { tab: 0, method: 'Network.dataReceived', params: null as unknown as Record<string, unknown> },
      event(0, 'Runtime.consoleAPICalled', { type: 'log', args: [] }),
      event(0, 'Page.somethingNew', {}),
      requestWillBeSent(later),
      { ...responseReceived(later), params: { ...responseReceived(later).params, response: brokenResponse } },
      responseReceived(later),
      loadingFinished(later),
    ];

    const har = harOfCapture(events, { sensitive: false, creator: CREATOR });

    expect(har.log.entries.map((e) => [e.request.url, e.response.status])).toEqual([
      ['https://shop.test/', 200],
      ['https://shop.test/later', 200],
    ]);
    expect(harOfCapture([], { sensitive: false, creator: CREATOR }).log).toEqual({
      version: '1.2',
      creator: CREATOR,
      pages: [],
      entries: [],
    });
  });

  it('produces documents valid against the HAR 1.2 schema (har-schema)', () => {
    const validate = harValidator();
    const failed = { tab: 1, requestId: '9', url: 'https://gone.test/', at: 0.9 };
    const withFailure = [...twoTabs(), requestWillBeSent(failed), loadingFailed(failed, 'net::ERR_FAILED')];
    for (const events of [withFailure, withCredentials()]) {
      for (const sensitive of [false, true]) {
        const har = harOfCapture(events, { sensitive, creator: CREATOR });
        expect(har.log.entries.length).toBeGreaterThan(0);
        expect(validate(har), JSON.stringify(validate.errors)).toBe(true);
        const ids = har.log.pages.map((p) => p.id);
        expect(new Set(ids).size).toBe(ids.length);
      }
    }
  });

  it('lists every Page and Network event chrome-har reads', () => {
    const source = readFileSync(fileURLToPath(import.meta.resolve('chrome-har')), 'utf8');
    const cases = [...source.matchAll(/case '((?:Page|Network)\.\w+)'/g)].map((match) => match[1]);
    expect(cases.length).toBeGreaterThan(10);
    expect([...HAR_CDP_EVENTS].sort()).toEqual([...new Set(cases)].sort());
  });
});

/**
 * har-schema 2.0.0 is draft-06 with three keywords of its own: `min` (meant as `minimum`, checked
 * here), `unique` and `optional` (annotations; page ids are checked for uniqueness by the test).
 */
function harValidator() {
  const schemas = require('har-schema') as Record<string, object>;
  const addFormats = require('ajv-formats') as (ajv: Ajv) => Ajv;
  const ajv = new Ajv({ allErrors: true, strictTypes: false });
  ajv.addMetaSchema(require('ajv/dist/refs/json-schema-draft-06.json') as object);
  addFormats(ajv);
  ajv.addKeyword({
    keyword: 'min',
    type: 'number',
    schemaType: 'number',
    validate: (min: number, value: number) => value >= min,
  });
  ajv.addKeyword('unique');
  ajv.addKeyword('optional');
  for (const [name, schema] of Object.entries(schemas)) if (name !== 'har') ajv.addSchema(schema);
  return ajv.compile(schemas.har as object);
}
