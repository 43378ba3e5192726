// nock is loaded before the Browserbase SDK (see testing/browserbaseTestKit.ts).

import {
  browserbase,
  build,
  failure,
  ID,
  JSON_HEADERS,
  request,
  seen,
  slowly,
  socketError,
  useNockedBrowserbase,
} from '@browserdeck/testing/browserbase';
import concurrency from '@browserdeck/testing/browserbase/fixtures/error-429-concurrency.json' with {
  type: 'json',
};
import created from '@browserdeck/testing/browserbase/fixtures/session-created.json' with { type: 'json' };
import released from '@browserdeck/testing/browserbase/fixtures/session-released.json' with { type: 'json' };
import running from '@browserdeck/testing/browserbase/fixtures/session-running.json' with { type: 'json' };
import { describe, expect, it, vi } from 'vitest';

useNockedBrowserbase();

/** The List Sessions query that finds the browser of our session, as Browserbase documents it. */
const query = { q: `user_metadata['browserdeckSessionId']:'${request.sessionId}'` };
const OTHER_PROJECT = 'b3f8e2c1-0000-4000-8000-00000000beef';
/** A browser of someone else's session in the same Browserbase project. */
const stranger = {
  ...running,
  id: 'a9e4c1d0-7777-4aaa-8bbb-cccccccccccc',
  userMetadata: { browserdeckSessionId: '0197f3a2-0000-7000-8000-000000000000' },
};
const ours = { ...running, projectId: OTHER_PROJECT };

const calls = () => seen.map((c) => `${c.method} ${c.path}`);
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

describe('BrowserbaseProvider: a create whose outcome is unknown', () => {
  it('after a timeout, finds the browser Browserbase started anyway and releases it in its own project', async () => {
    browserbase().post('/v1/sessions').reply(slowly(201, created));
    browserbase().get('/v1/sessions').query(query).reply(200, [stranger, ours], JSON_HEADERS);
    browserbase().post(`/v1/sessions/${ID}`).reply(200, released, JSON_HEADERS);
    const { provider, logger } = build({ timeoutMs: 100, orphanSweepDelaysMs: [0] });

    expect((await failure(provider.create(request))).code).toBe('provider_timeout');

    await vi.waitFor(() => expect(logger.warn).toHaveBeenCalled());
    expect(calls()).toEqual([
      'POST /v1/sessions',
      expect.stringMatching(/^GET \/v1\/sessions/),
      `POST /v1/sessions/${ID}`,
    ]);
    // Only ours, never the stranger the list also returned.
    expect(seen[2]!.body).toEqual({ projectId: OTHER_PROJECT, status: 'REQUEST_RELEASE' });
    expect(logger.warn).toHaveBeenCalledWith(
      { sessionId: request.sessionId, providerSessionId: ID },
      'released a Browserbase browser left by a failed create',
    );
  });

  it('after a reset connection, looks again later when the browser is not there yet', async () => {
    browserbase().post('/v1/sessions').replyWithError(socketError('ECONNRESET'));
    browserbase().get('/v1/sessions').query(query).reply(200, [], JSON_HEADERS);
    browserbase().get('/v1/sessions').query(query).reply(200, [ours], JSON_HEADERS);
    browserbase().post(`/v1/sessions/${ID}`).reply(200, released, JSON_HEADERS);
    const { provider, logger } = build({ orphanSweepDelaysMs: [0, 30, 1_000] });

    expect((await failure(provider.create(request))).code).toBe('provider_unavailable');

    await vi.waitFor(() => expect(logger.warn).toHaveBeenCalledTimes(1));
    await settle();
    expect(calls().filter((c) => c.startsWith('GET'))).toHaveLength(2);
  });

  it('after a body it could not read, releases the browser that body described', async () => {
    browserbase()
      .post('/v1/sessions')
      .reply(201, { ...created, status: 'EXPLODED' }, JSON_HEADERS);
    browserbase().get('/v1/sessions').query(query).reply(200, [ours], JSON_HEADERS);
    browserbase().post(`/v1/sessions/${ID}`).reply(200, released, JSON_HEADERS);
    const { provider, logger } = build({ orphanSweepDelaysMs: [0] });

    expect((await failure(provider.create(request))).code).toBe('provider_error');
    await vi.waitFor(() => expect(logger.warn).toHaveBeenCalledTimes(1));
  });

  it('releases nothing when the browser it finds has already ended', async () => {
    browserbase().post('/v1/sessions').replyWithError(socketError('ECONNRESET'));
    browserbase()
      .get('/v1/sessions')
      .query(query)
      .reply(200, [{ ...ours, status: 'COMPLETED', endedAt: '2026-03-02T10:16:00.000Z' }], JSON_HEADERS);
    const { provider, logger } = build({ orphanSweepDelaysMs: [0, 1_000] });

    await failure(provider.create(request));
    await vi.waitFor(() => expect(calls()).toHaveLength(2));
    await settle();
    expect(calls()).toHaveLength(2);
    expect(logger.warn).not.toHaveBeenCalled();
  });

  it.each([
    ['a 429', () => browserbase().post('/v1/sessions').reply(429, concurrency, JSON_HEADERS)],
    ['a 400', () => browserbase().post('/v1/sessions').reply(400, { message: 'bad' }, JSON_HEADERS)],
  ])('looks for nothing after %s: Browserbase said it started no browser', async (_label, refuse) => {
    refuse();
    const { provider, logger } = build({ orphanSweepDelaysMs: [0] });
    await failure(provider.create(request));
    await settle();
    expect(calls()).toEqual(['POST /v1/sessions']);
    // A look-up would have found no interceptor: retried (warnings), then given up (an error).
    expect(logger.warn).not.toHaveBeenCalled();
    expect(logger.error).not.toHaveBeenCalled();
  });

  it('logs an error when it could not look at all', async () => {
    browserbase().post('/v1/sessions').replyWithError(socketError('ECONNRESET'));
    for (let i = 0; i < 2 * 3; i++) {
      browserbase().get('/v1/sessions').query(query).replyWithError(socketError('ECONNREFUSED'));
    }
    const { provider, logger } = build({ orphanSweepDelaysMs: [0, 10] });

    await failure(provider.create(request));

    await vi.waitFor(() => expect(logger.error).toHaveBeenCalledTimes(1));
    expect(logger.error).toHaveBeenCalledWith(
      { sessionId: request.sessionId, error: expect.stringContaining('could not be reached') },
      'could not look for a Browserbase browser left by a failed create',
    );
    expect(calls().every((c) => !c.includes(ID))).toBe(true);
  });
});
