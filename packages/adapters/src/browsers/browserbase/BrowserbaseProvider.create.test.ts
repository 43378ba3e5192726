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
  request,
  seen,
  slowly,
  socketError,
  useNockedBrowserbase,
} from '@browserdeck/testing/browserbase';
import invalid from '@browserdeck/testing/browserbase/fixtures/error-400-invalid.json' with { type: 'json' };
import concurrency from '@browserdeck/testing/browserbase/fixtures/error-429-concurrency.json' with {
  type: 'json',
};
import internal from '@browserdeck/testing/browserbase/fixtures/error-500.json' with { type: 'json' };
import created from '@browserdeck/testing/browserbase/fixtures/session-created.json' with { type: 'json' };
import running from '@browserdeck/testing/browserbase/fixtures/session-running.json' with { type: 'json' };
import nock from 'nock';
import { describe, expect, it } from 'vitest';

useNockedBrowserbase();

describe('BrowserbaseProvider: identity', () => {
  it('is named browserbase, offers the four regions with us-west-2 first, and the configured project', () => {
    const { provider } = build();
    expect(provider.name).toBe('browserbase');
    expect(provider.regions).toEqual(['us-west-2', 'us-east-1', 'eu-central-1', 'ap-southeast-1']);
    expect(provider.defaultProviderProjectId).toBe(PROJECT);
  });

  it('refuses to start without an API key or a project id', () => {
    expect(() => build({ apiKey: '' })).toThrow(/BROWSERBASE_API_KEY/);
    expect(() => build({ projectId: '' })).toThrow(/BROWSERBASE_PROJECT_ID/);
  });

  it('talks to api.browserbase.com when no base URL is configured', async () => {
    nock('https://api.browserbase.com').get(`/v1/sessions/${ID}`).reply(200, running);
    const { provider } = build({ baseUrl: undefined });
    expect((await provider.get(ID))?.status).toBe('RUNNING');
  });
});

describe('BrowserbaseProvider.create', () => {
  it('sends timeout in seconds, region, a persisted context, the extension and only our two ids (no keepAlive unless asked)', async () => {
    browserbase().post('/v1/sessions').reply(201, created, JSON_HEADERS);
    const { provider } = build();

    const snapshot = await provider.create(request);

    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ method: 'POST', path: '/v1/sessions', apiKey: API_KEY });
    expect(seen[0]!.body).toEqual({
      projectId: PROJECT,
      region: 'eu-central-1',
      timeout: 600,
      browserSettings: { context: { id: request.contextId, persist: true } },
      extensionId: 'ext_4a1b2c3d',
      userMetadata: {
        browserdeckSessionId: request.sessionId,
        browserdeckProjectId: request.projectId,
      },
    });
    expect(JSON.stringify((seen[0]!.body as { userMetadata: unknown }).userMetadata).length).toBeLessThan(
      512,
    );
    expect(snapshot).toEqual({
      providerSessionId: ID,
      providerProjectId: PROJECT,
      status: 'RUNNING',
      connectUrl: created.connectUrl,
      seleniumRemoteUrl: 'http://connect.euc1.browserbase.com/webdriver',
      startedAt: new Date('2026-03-02T10:15:30.457Z'),
      endedAt: null,
      expiresAt: new Date('2026-03-02T10:25:30.457Z'),
      proxyBytes: 0,
    });
  });

  it('leaves out browserSettings and extensionId when there is no context or extension', async () => {
    browserbase().post('/v1/sessions').reply(201, created, JSON_HEADERS);
    const { provider } = build();

    await provider.create({
      ...request,
      contextId: null,
      extensionId: null,
      region: 'us-west-2',
      timeoutSec: 300,
    });

    expect(seen[0]!.body).toEqual({
      projectId: PROJECT,
      region: 'us-west-2',
      timeout: 300,
      userMetadata: { browserdeckSessionId: request.sessionId, browserdeckProjectId: request.projectId },
    });
  });

  it('sends keepAlive as asked and the viewport beside a context, and a viewport alone', async () => {
    browserbase().post('/v1/sessions').times(2).reply(201, created, JSON_HEADERS);
    const { provider } = build();

    await provider.create({ ...request, keepAlive: false, viewport: { width: 1024, height: 700 } });
    await provider.create({
      ...request,
      contextId: null,
      extensionId: null,
      keepAlive: true,
      viewport: { width: 390, height: 844 },
    });

    expect(seen.map((s) => s.body)).toEqual([
      {
        projectId: PROJECT,
        region: 'eu-central-1',
        timeout: 600,
        keepAlive: false,
        browserSettings: {
          context: { id: request.contextId, persist: true },
          viewport: { width: 1024, height: 700 },
        },
        extensionId: 'ext_4a1b2c3d',
        userMetadata: { browserdeckSessionId: request.sessionId, browserdeckProjectId: request.projectId },
      },
      {
        projectId: PROJECT,
        region: 'eu-central-1',
        timeout: 600,
        keepAlive: true,
        browserSettings: { viewport: { width: 390, height: 844 } },
        userMetadata: { browserdeckSessionId: request.sessionId, browserdeckProjectId: request.projectId },
      },
    ]);
  });

  it('reports PENDING as Browserbase says it (an active status)', async () => {
    browserbase()
      .post('/v1/sessions')
      .reply(201, { ...created, status: 'PENDING' }, JSON_HEADERS);
    expect((await build().provider.create(request)).status).toBe('PENDING');
  });

  it('is not retried after a 500: exactly one request, provider_error', async () => {
    const scope = browserbase();
    scope.post('/v1/sessions').reply(500, internal, JSON_HEADERS);
    const retryTrap = nock(BASE).post('/v1/sessions').reply(201, created, JSON_HEADERS);

    const error = await failure(build().provider.create(request));

    expect(error.code).toBe('provider_error');
    expect(error.message).toContain('Browserbase answered 500');
    expect(seen).toHaveLength(1);
    expect(retryTrap.isDone()).toBe(false);
    nock.cleanAll();
  });

  it('is not retried after a connection reset: exactly one request, provider_unavailable', async () => {
    browserbase().post('/v1/sessions').replyWithError(socketError('ECONNRESET'));
    const retryTrap = nock(BASE).post('/v1/sessions').reply(201, created, JSON_HEADERS);

    const error = await failure(build().provider.create(request));

    expect(error.code).toBe('provider_unavailable');
    expect(seen).toHaveLength(1);
    expect(retryTrap.isDone()).toBe(false);
    nock.cleanAll();
  });

  it('maps a 429 to provider_rate_limited with Retry-After seconds and the concurrency message, unretried', async () => {
    browserbase()
      .post('/v1/sessions')
      .reply(429, concurrency, { ...JSON_HEADERS, 'Retry-After': '17' });
    const retryTrap = nock(BASE).post('/v1/sessions').reply(201, created, JSON_HEADERS);

    const error = await failure(build().provider.create(request));

    expect(error.code).toBe('provider_rate_limited');
    expect(error.retryAfterSec).toBe(17);
    expect(error.message).toContain(
      "You've exceeded your max concurrent sessions limit (limit 3, currently 3)",
    );
    expect(seen).toHaveLength(1);
    expect(retryTrap.isDone()).toBe(false);
    nock.cleanAll();
  });

  it('reads a Retry-After HTTP date against the clock', async () => {
    browserbase()
      .post('/v1/sessions')
      .reply(429, concurrency, { ...JSON_HEADERS, 'Retry-After': 'Mon, 02 Mar 2026 10:15:42 GMT' });
    const { provider } = build();

    expect((await failure(provider.create(request))).retryAfterSec).toBe(42);
  });

  it('defaults retryAfterSec to 5 when a 429 carries no Retry-After', async () => {
    browserbase().post('/v1/sessions').reply(429, concurrency, JSON_HEADERS);
    const error = await failure(build().provider.create(request));
    expect(error.code).toBe('provider_rate_limited');
    expect(error.retryAfterSec).toBe(5);
  });

  it("passes a 4xx on as provider_error with Browserbase's reason", async () => {
    browserbase().post('/v1/sessions').reply(400, invalid, JSON_HEADERS);
    const error = await failure(build().provider.create(request));
    expect(error.code).toBe('provider_error');
    expect(error.message).toBe('Browserbase answered 400 to create a session: body/timeout must be <= 21600');
  });

  it('never repeats the API key, even when Browserbase echoes it', async () => {
    browserbase()
      .post('/v1/sessions')
      .reply(
        401,
        { statusCode: 401, error: 'Unauthorized', message: `Invalid API key ${API_KEY}` },
        JSON_HEADERS,
      );
    const error = await failure(build().provider.create(request));
    expect(error.code).toBe('provider_error');
    expect(error.message).toContain('Browserbase answered 401');
    expect(error.message).toContain('[redacted]');
  });

  it('maps a refused connection to provider_unavailable', async () => {
    browserbase().post('/v1/sessions').replyWithError(socketError('ECONNREFUSED'));
    expect((await failure(build().provider.create(request))).code).toBe('provider_unavailable');
  });

  it('maps an answer slower than timeoutMs to provider_timeout', async () => {
    browserbase().post('/v1/sessions').reply(slowly(201, created));
    const error = await failure(build({ timeoutMs: 100 }).provider.create(request));
    expect(error.code).toBe('provider_timeout');
    expect(seen).toHaveLength(1);
  });

  it('maps a malformed JSON body to provider_error', async () => {
    browserbase().post('/v1/sessions').reply(201, '{"id": "3f0c2a7e', JSON_HEADERS);
    expect((await failure(build().provider.create(request))).code).toBe('provider_error');
  });

  it('maps a body that is not a session to provider_error', async () => {
    browserbase()
      .post('/v1/sessions')
      .reply(201, { ...created, status: 'EXPLODED' }, JSON_HEADERS);
    expect((await failure(build().provider.create(request))).message).toContain('unknown status');
  });
});
