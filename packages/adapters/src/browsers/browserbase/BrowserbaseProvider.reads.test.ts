// nock is loaded before the Browserbase SDK (see testing/browserbaseTestKit.ts).

import {
  API_KEY,
  BASE,
  browserbase,
  build,
  failure,
  ID,
  JSON_HEADERS,
  PROJECT,
  seen,
  slowly,
  socketError,
  useNockedBrowserbase,
} from '@browserdeck/testing/browserbase';
import notFound from '@browserdeck/testing/browserbase/fixtures/error-404.json' with { type: 'json' };
import concurrency from '@browserdeck/testing/browserbase/fixtures/error-429-concurrency.json' with {
  type: 'json',
};
import internal from '@browserdeck/testing/browserbase/fixtures/error-500.json' with { type: 'json' };
import debugUrls from '@browserdeck/testing/browserbase/fixtures/session-debug.json' with { type: 'json' };
import logs from '@browserdeck/testing/browserbase/fixtures/session-logs.json' with { type: 'json' };
import pending from '@browserdeck/testing/browserbase/fixtures/session-pending-no-urls.json' with {
  type: 'json',
};
import released from '@browserdeck/testing/browserbase/fixtures/session-released.json' with { type: 'json' };
import running from '@browserdeck/testing/browserbase/fixtures/session-running.json' with { type: 'json' };
import nock from 'nock';
import { describe, expect, it } from 'vitest';

useNockedBrowserbase();

describe('BrowserbaseProvider.get', () => {
  it('reads the session with the API key', async () => {
    browserbase().get(`/v1/sessions/${ID}`).reply(200, running, JSON_HEADERS);
    const snapshot = await build().provider.get(ID);
    expect(seen[0]).toMatchObject({ method: 'GET', apiKey: API_KEY });
    expect(snapshot).toMatchObject({
      providerSessionId: ID,
      status: 'RUNNING',
      connectUrl: running.connectUrl,
    });
  });

  it('is null on 404, without retrying', async () => {
    browserbase().get(`/v1/sessions/${ID}`).reply(404, notFound, JSON_HEADERS);
    expect(await build().provider.get(ID)).toBeNull();
    expect(seen).toHaveLength(1);
  });

  it('retries a 503 and then succeeds', async () => {
    browserbase()
      .get(`/v1/sessions/${ID}`)
      .reply(503, 'upstream unavailable')
      .get(`/v1/sessions/${ID}`)
      .reply(200, running, JSON_HEADERS);
    const { provider, logger } = build();

    expect((await provider.get(ID))?.status).toBe('RUNNING');
    expect(seen).toHaveLength(2);
    expect(logger.warn).toHaveBeenCalledWith(
      expect.objectContaining({ operation: 'read a session', attempt: 1, reason: 'status 503' }),
      expect.any(String),
    );
  });

  it('retries a refused connection and then succeeds', async () => {
    browserbase()
      .get(`/v1/sessions/${ID}`)
      .replyWithError(socketError('ECONNREFUSED'))
      .get(`/v1/sessions/${ID}`)
      .reply(200, running, JSON_HEADERS);
    expect((await build().provider.get(ID))?.status).toBe('RUNNING');
    expect(seen).toHaveLength(2);
  });

  it('gives up after readRetries (1 + 2 attempts) with provider_error on 500', async () => {
    browserbase().get(`/v1/sessions/${ID}`).times(3).reply(500, internal, JSON_HEADERS);
    const retryTrap = nock(BASE).get(`/v1/sessions/${ID}`).reply(200, running, JSON_HEADERS);

    const error = await failure(build().provider.get(ID));

    expect(error.code).toBe('provider_error');
    expect(error.message).toContain('Browserbase answered 500');
    expect(seen).toHaveLength(3);
    expect(retryTrap.isDone()).toBe(false);
    nock.cleanAll();
  });

  it('gives up on a refused connection with provider_unavailable', async () => {
    browserbase().get(`/v1/sessions/${ID}`).times(2).replyWithError(socketError('ECONNREFUSED'));
    const error = await failure(build({ readRetries: 1 }).provider.get(ID));
    expect(error.code).toBe('provider_unavailable');
    expect(seen).toHaveLength(2);
  });

  it('does not retry a 429 and passes Retry-After on', async () => {
    browserbase()
      .get(`/v1/sessions/${ID}`)
      .reply(429, concurrency, { ...JSON_HEADERS, 'Retry-After': '3' });
    const error = await failure(build().provider.get(ID));
    expect(error).toMatchObject({ code: 'provider_rate_limited', retryAfterSec: 3 });
    expect(seen).toHaveLength(1);
  });

  it('does not retry a timeout (provider_timeout after one request)', async () => {
    browserbase().get(`/v1/sessions/${ID}`).reply(slowly(200, running));
    const error = await failure(build({ timeoutMs: 100 }).provider.get(ID));
    expect(error.code).toBe('provider_timeout');
    expect(seen).toHaveLength(1);
  });

  it('maps a malformed JSON body to provider_error', async () => {
    browserbase().get(`/v1/sessions/${ID}`).reply(200, '<html>oops', JSON_HEADERS);
    expect((await failure(build().provider.get(ID))).code).toBe('provider_error');
  });

  it('asks the live-URL endpoint for a connect URL when an active session comes without one', async () => {
    browserbase()
      .get(`/v1/sessions/${ID}`)
      .reply(200, pending, JSON_HEADERS)
      .get(`/v1/sessions/${ID}/debug`)
      .reply(200, debugUrls, JSON_HEADERS);

    const snapshot = await build().provider.get(ID);

    expect(snapshot).toMatchObject({
      status: 'PENDING',
      connectUrl: debugUrls.wsUrl,
      seleniumRemoteUrl: null,
    });
    expect(snapshot?.endedAt).toBeNull();
  });

  it('maps an ended session with its end time', async () => {
    browserbase()
      .get(`/v1/sessions/${ID}`)
      .reply(200, { ...released, status: 'TIMED_OUT' }, JSON_HEADERS);
    const snapshot = await build().provider.get(ID);
    expect(snapshot).toMatchObject({ status: 'TIMED_OUT', endedAt: new Date('2026-03-02T10:18:44.302Z') });
  });

  it('encodes the session id into the path', async () => {
    browserbase().get('/v1/sessions/a%2F..%2Fprojects').reply(404, notFound, JSON_HEADERS);
    expect(await build().provider.get('a/../projects')).toBeNull();
  });
});

describe('BrowserbaseProvider.liveUrls', () => {
  it('passes Browserbase’s live-view URLs through, asked with the API key', async () => {
    browserbase().get(`/v1/sessions/${ID}/debug`).reply(200, debugUrls, JSON_HEADERS);
    expect(await build().provider.liveUrls(ID)).toEqual(debugUrls);
    expect(seen[0]).toMatchObject({ method: 'GET', apiKey: API_KEY });
  });

  it('keeps only the fields of Browserbase’s shape, with an empty favicon when one is missing', async () => {
    const { faviconUrl: _favicon, ...page } = debugUrls.pages[0] as (typeof debugUrls.pages)[number];
    browserbase()
      .get(`/v1/sessions/${ID}/debug`)
      .reply(200, { ...debugUrls, extra: 'x', pages: [{ ...page, extra: 'y' }] }, JSON_HEADERS);
    expect(await build().provider.liveUrls(ID)).toEqual({
      ...debugUrls,
      pages: [{ ...page, faviconUrl: '' }],
    });
  });

  it('is null on 404', async () => {
    browserbase().get(`/v1/sessions/${ID}/debug`).reply(404, notFound, JSON_HEADERS);
    expect(await build().provider.liveUrls(ID)).toBeNull();
  });

  it('maps an answer of another shape to provider_error, and retries a 503 like every read', async () => {
    browserbase()
      .get(`/v1/sessions/${ID}/debug`)
      .reply(200, { ...debugUrls, wsUrl: 42 }, JSON_HEADERS);
    expect((await failure(build().provider.liveUrls(ID))).code).toBe('provider_error');
    browserbase()
      .get(`/v1/sessions/${ID}/debug`)
      .reply(200, { ...debugUrls, pages: 'none' }, JSON_HEADERS);
    expect((await failure(build().provider.liveUrls(ID))).code).toBe('provider_error');
    seen.length = 0;
    browserbase()
      .get(`/v1/sessions/${ID}/debug`)
      .reply(503, 'upstream unavailable')
      .get(`/v1/sessions/${ID}/debug`)
      .reply(200, debugUrls, JSON_HEADERS);
    expect((await build().provider.liveUrls(ID))?.wsUrl).toBe(debugUrls.wsUrl);
    expect(seen).toHaveLength(2);
  });
});

describe('BrowserbaseProvider.release', () => {
  it('posts status REQUEST_RELEASE with the project id and maps the answer', async () => {
    browserbase().post(`/v1/sessions/${ID}`).reply(200, released, JSON_HEADERS);

    const snapshot = await build().provider.release(ID);

    expect(seen).toEqual([
      {
        method: 'POST',
        path: `/v1/sessions/${ID}`,
        body: { projectId: PROJECT, status: 'REQUEST_RELEASE' },
        apiKey: API_KEY,
      },
    ]);
    expect(snapshot).toMatchObject({ status: 'COMPLETED', endedAt: new Date('2026-03-02T10:18:44.302Z') });
  });

  it('releases in the provider project the session was started in (an agent may name another)', async () => {
    browserbase().post(`/v1/sessions/${ID}`).reply(200, released, JSON_HEADERS);
    await build().provider.release(ID, 'agent-browserbase-project');
    expect(seen.map((request) => request.body)).toEqual([
      { projectId: 'agent-browserbase-project', status: 'REQUEST_RELEASE' },
    ]);
  });

  it('is null on 404', async () => {
    browserbase().post(`/v1/sessions/${ID}`).reply(404, notFound, JSON_HEADERS);
    expect(await build().provider.release(ID)).toBeNull();
  });

  it('maps a 500 to provider_error without retrying', async () => {
    browserbase().post(`/v1/sessions/${ID}`).reply(500, internal, JSON_HEADERS);
    expect((await failure(build().provider.release(ID))).code).toBe('provider_error');
    expect(seen).toHaveLength(1);
  });
});

describe('BrowserbaseProvider.logs', () => {
  it("maps Browserbase's CDP log items, oldest first, keeping request and response", async () => {
    browserbase().get(`/v1/sessions/${ID}/logs`).reply(200, logs, JSON_HEADERS);

    const entries = await build().provider.logs(ID);

    expect(entries.map((e) => e.method)).toEqual([
      'Page.navigate',
      'Network.requestWillBeSent',
      'Runtime.consoleAPICalled',
    ]);
    expect(entries[0]).toEqual({
      timestamp: 1772446531998,
      method: 'Page.navigate',
      pageId: 0,
      frameId: '8A1F0C2E9B7D4E6F',
      request: {
        timestamp: 1772446531990,
        params: { url: 'https://example.com/' },
        rawBody: logs[1]!.request.rawBody,
      },
      response: {
        timestamp: 1772446532240,
        result: { frameId: '8A1F0C2E9B7D4E6F', loaderId: '5C0D9E8F7A6B' },
        rawBody: logs[1]!.response!.rawBody,
      },
    });
    expect(entries[1]).toMatchObject({ loaderId: '5C0D9E8F7A6B', frameId: '8A1F0C2E9B7D4E6F' });
    expect(entries[2]).toEqual({
      timestamp: 1772446533012,
      method: 'Runtime.consoleAPICalled',
      pageId: 1,
      request: logs[2]!.request,
    });
    expect(entries[0]).not.toHaveProperty('sessionId');
  });

  it('is empty when Browserbase no longer knows the session', async () => {
    browserbase().get(`/v1/sessions/${ID}/logs`).reply(404, notFound, JSON_HEADERS);
    expect(await build().provider.logs(ID)).toEqual([]);
  });

  it('retries a 502 and then succeeds', async () => {
    browserbase()
      .get(`/v1/sessions/${ID}/logs`)
      .reply(502, 'bad gateway')
      .get(`/v1/sessions/${ID}/logs`)
      .reply(200, logs, JSON_HEADERS);
    expect(await build().provider.logs(ID)).toHaveLength(3);
    expect(seen).toHaveLength(2);
  });

  it('maps an answer that is not a list to provider_error', async () => {
    browserbase().get(`/v1/sessions/${ID}/logs`).reply(200, { logs: [] }, JSON_HEADERS);
    expect((await failure(build().provider.logs(ID))).code).toBe('provider_error');
  });
});
