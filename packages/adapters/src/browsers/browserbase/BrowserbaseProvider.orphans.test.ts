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
import { InMemoryOrphanSearches } from '../orphans/InMemoryOrphanSearches.ts';

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

describe('BrowserbaseProvider: a create whose outcome is unknown', () => {
  it('after a timeout, finds the browser Browserbase started anyway and releases it in its own project', async () => {
    browserbase().post('/v1/sessions').reply(slowly(201, created));
    browserbase().get('/v1/sessions').query(query).reply(200, [stranger, ours], JSON_HEADERS);
    browserbase().post(`/v1/sessions/${ID}`).reply(200, released, JSON_HEADERS);
    const { provider, logger } = build({ timeoutMs: 400, orphanSweepDelaysMs: [0] });

    expect((await failure(provider.create(request))).code).toBe('provider_timeout');
    expect(calls()).toEqual(['POST /v1/sessions']);

    expect(await provider.sweepOrphans()).toBe(1);
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
    // Found: the search is over.
    expect(await provider.sweepOrphans()).toBe(0);
  });

  it('after a reset connection, looks again later when the browser is not there yet', async () => {
    browserbase().post('/v1/sessions').replyWithError(socketError('ECONNRESET'));
    browserbase().get('/v1/sessions').query(query).reply(200, [], JSON_HEADERS);
    browserbase().get('/v1/sessions').query(query).reply(200, [ours], JSON_HEADERS);
    browserbase().post(`/v1/sessions/${ID}`).reply(200, released, JSON_HEADERS);
    const { provider, clock, logger } = build({ orphanSweepDelaysMs: [0, 30, 1_000] });

    expect((await failure(provider.create(request))).code).toBe('provider_unavailable');

    expect(await provider.sweepOrphans()).toBe(1);
    expect(logger.warn).not.toHaveBeenCalled();
    // The next look is due 30 ms after the failure, not before.
    expect(await provider.sweepOrphans()).toBe(0);
    clock.advance(30);
    expect(await provider.sweepOrphans()).toBe(1);
    expect(logger.warn).toHaveBeenCalledTimes(1);
    clock.advance(1_000);
    expect(await provider.sweepOrphans()).toBe(0);
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
    await provider.sweepOrphans();
    expect(logger.warn).toHaveBeenCalledTimes(1);
  });

  it('releases nothing when the browser it finds has already ended', async () => {
    browserbase().post('/v1/sessions').replyWithError(socketError('ECONNRESET'));
    browserbase()
      .get('/v1/sessions')
      .query(query)
      .reply(200, [{ ...ours, status: 'COMPLETED', endedAt: '2026-03-02T10:16:00.000Z' }], JSON_HEADERS);
    const { provider, clock, logger } = build({ orphanSweepDelaysMs: [0, 1_000] });

    await failure(provider.create(request));
    expect(await provider.sweepOrphans()).toBe(1);
    expect(calls()).toHaveLength(2);
    // Found, although ended: no later look.
    clock.advance(1_000);
    expect(await provider.sweepOrphans()).toBe(0);
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
    expect(await provider.sweepOrphans()).toBe(0);
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
    const { provider, clock, logger } = build({ orphanSweepDelaysMs: [0, 10] });

    await failure(provider.create(request));

    expect(await provider.sweepOrphans()).toBe(1);
    // Not the last look: no error yet.
    expect(logger.error).not.toHaveBeenCalled();
    clock.advance(10);
    expect(await provider.sweepOrphans()).toBe(1);
    expect(logger.error).toHaveBeenCalledTimes(1);
    expect(logger.error).toHaveBeenCalledWith(
      { sessionId: request.sessionId, error: expect.stringContaining('could not be reached') },
      'could not look for a Browserbase browser left by a failed create',
    );
    expect(calls().every((c) => !c.includes(ID))).toBe(true);
    // That was the last look: the search is over.
    clock.advance(60_000);
    expect(await provider.sweepOrphans()).toBe(0);
  });

  it('is carried out after a restart: a new provider on the same store finds and releases the browser', async () => {
    browserbase().post('/v1/sessions').replyWithError(socketError('ECONNRESET'));
    browserbase().get('/v1/sessions').query(query).reply(200, [ours], JSON_HEADERS);
    browserbase().post(`/v1/sessions/${ID}`).reply(200, released, JSON_HEADERS);
    const orphanSearches = new InMemoryOrphanSearches();
    const before = build({ orphanSweepDelaysMs: [0, 10_000, 60_000], orphanSearches });

    await failure(before.provider.create(request));
    // The process ends before any look: nothing ran but the create.
    await before.provider.capabilities.background?.stop();
    expect(calls()).toEqual(['POST /v1/sessions']);

    const after = build({ orphanSweepDelaysMs: [0, 10_000, 60_000], orphanSearches });
    expect(await after.provider.sweepOrphans()).toBe(1);
    expect(calls()).toEqual([
      'POST /v1/sessions',
      expect.stringMatching(/^GET \/v1\/sessions/),
      `POST /v1/sessions/${ID}`,
    ]);
    expect(after.logger.warn).toHaveBeenCalledWith(
      { sessionId: request.sessionId, providerSessionId: ID },
      'released a Browserbase browser left by a failed create',
    );
    expect(await after.provider.sweepOrphans()).toBe(0);
  });

  it('runs its passes in the background once started, until stopped', async () => {
    browserbase().post('/v1/sessions').replyWithError(socketError('ECONNRESET'));
    browserbase().get('/v1/sessions').query(query).reply(200, [ours], JSON_HEADERS);
    browserbase().post(`/v1/sessions/${ID}`).reply(200, released, JSON_HEADERS);
    const { provider, logger } = build({ orphanSweepDelaysMs: [0], orphanSweepIntervalMs: 10 });

    await failure(provider.create(request));
    provider.capabilities.background?.start();
    try {
      await vi.waitFor(() => expect(logger.warn).toHaveBeenCalledTimes(1));
    } finally {
      await provider.capabilities.background?.stop();
    }
    expect(calls()).toHaveLength(3);
  });
});
