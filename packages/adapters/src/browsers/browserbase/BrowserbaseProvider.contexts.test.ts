// nock is loaded before the Browserbase SDK (see testing/browserbaseTestKit.ts).
import { ConflictError } from '@browserdeck/domain';
import {
  API_KEY,
  browserbase,
  build,
  failure,
  JSON_HEADERS,
  PROJECT,
  request,
  seen,
  useNockedBrowserbase,
} from '@browserdeck/testing/browserbase';
import context from '@browserdeck/testing/browserbase/fixtures/context.json' with { type: 'json' };
import contextCreated from '@browserdeck/testing/browserbase/fixtures/context-created.json' with {
  type: 'json',
};
import notFound from '@browserdeck/testing/browserbase/fixtures/error-404.json' with { type: 'json' };
import internal from '@browserdeck/testing/browserbase/fixtures/error-500.json' with { type: 'json' };
import created from '@browserdeck/testing/browserbase/fixtures/session-created.json' with { type: 'json' };
import { describe, expect, it } from 'vitest';

useNockedBrowserbase();

/** Our project the fixture context was named for, and another one. */
const OURS = request.projectId;
const OTHER = '0197f3a0-11aa-7bbb-8ccc-0d0e0f1010ff';
const CONTEXT = context.id;

describe('BrowserbaseProvider.contexts.create', () => {
  it('creates a context in the configured project, named for our project, once', async () => {
    browserbase().post('/v1/contexts').reply(200, contextCreated, JSON_HEADERS);
    const { provider, clock } = build();
    const info = await provider.contexts.create(OURS);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ method: 'POST', path: '/v1/contexts', apiKey: API_KEY });
    expect(seen[0]!.body).toEqual({
      projectId: PROJECT,
      name: expect.stringMatching(new RegExp(`^browserdeck:${OURS}:[0-9a-f-]{36}$`)),
    });
    expect(info).toEqual({ id: CONTEXT, projectId: OURS, createdAt: clock.now(), updatedAt: clock.now() });
  });

  it('is never retried: a 500 is one request and a provider_error', async () => {
    browserbase().post('/v1/contexts').reply(500, internal, JSON_HEADERS);
    const error = await failure(build().provider.contexts.create(OURS));
    expect(error.code).toBe('provider_error');
    expect(seen).toHaveLength(1);
  });
});

describe('BrowserbaseProvider.contexts.get', () => {
  it('reads a context named for the project, with Browserbase’s times', async () => {
    browserbase().get(`/v1/contexts/${CONTEXT}`).reply(200, context, JSON_HEADERS);
    expect(await build().provider.contexts.get(OURS, CONTEXT)).toEqual({
      id: CONTEXT,
      projectId: OURS,
      createdAt: new Date('2026-03-02T10:10:00.000Z'),
      updatedAt: new Date('2026-03-02T10:14:12.345Z'),
    });
    expect(seen[0]).toMatchObject({ method: 'GET', path: `/v1/contexts/${CONTEXT}`, apiKey: API_KEY });
  });

  it('is null for another project’s context, one we did not name, and a 404 (not retried)', async () => {
    const { name: _, ...unnamed } = context;
    browserbase()
      .get(`/v1/contexts/${CONTEXT}`)
      .reply(200, context, JSON_HEADERS)
      .get(`/v1/contexts/${CONTEXT}`)
      .reply(200, unnamed, JSON_HEADERS)
      .get(`/v1/contexts/${CONTEXT}`)
      .reply(404, notFound, JSON_HEADERS);
    const { provider } = build();
    expect(await provider.contexts.get(OTHER, CONTEXT)).toBeNull();
    expect(await provider.contexts.get(OURS, CONTEXT)).toBeNull();
    expect(await provider.contexts.get(OURS, CONTEXT)).toBeNull();
    expect(seen).toHaveLength(3);
  });

  it('retries a 503 like any read', async () => {
    browserbase()
      .get(`/v1/contexts/${CONTEXT}`)
      .reply(503, 'upstream unavailable')
      .get(`/v1/contexts/${CONTEXT}`)
      .reply(200, context, JSON_HEADERS);
    expect((await build().provider.contexts.get(OURS, CONTEXT))?.id).toBe(CONTEXT);
    expect(seen).toHaveLength(2);
  });
});

describe('BrowserbaseProvider.contexts.delete', () => {
  it('deletes a context of the project after reading whose it is', async () => {
    browserbase()
      .get(`/v1/contexts/${CONTEXT}`)
      .reply(200, context, JSON_HEADERS)
      .delete(`/v1/contexts/${CONTEXT}`)
      .reply(204);
    expect(await build().provider.contexts.delete(OURS, CONTEXT)).toBe(true);
    expect(seen.map((s) => `${s.method} ${s.path}`)).toEqual([
      `GET /v1/contexts/${CONTEXT}`,
      `DELETE /v1/contexts/${CONTEXT}`,
    ]);
  });

  it('sends no delete for another project’s context or an unknown one', async () => {
    browserbase()
      .get(`/v1/contexts/${CONTEXT}`)
      .reply(200, context, JSON_HEADERS)
      .get('/v1/contexts/unknown')
      .reply(404, notFound, JSON_HEADERS);
    const { provider } = build();
    expect(await provider.contexts.delete(OTHER, CONTEXT)).toBe(false);
    expect(await provider.contexts.delete(OURS, 'unknown')).toBe(false);
    expect(seen.map((s) => s.method)).toEqual(['GET', 'GET']);
  });

  it('answers context_in_use when Browserbase refuses with 409, false when it is gone (404)', async () => {
    browserbase()
      .get(`/v1/contexts/${CONTEXT}`)
      .reply(200, context, JSON_HEADERS)
      .delete(`/v1/contexts/${CONTEXT}`)
      .reply(409, { statusCode: 409, error: 'Conflict', message: 'Context is in use' }, JSON_HEADERS)
      .get(`/v1/contexts/${CONTEXT}`)
      .reply(200, context, JSON_HEADERS)
      .delete(`/v1/contexts/${CONTEXT}`)
      .reply(404, notFound, JSON_HEADERS);
    const { provider } = build();
    const error = await provider.contexts.delete(OURS, CONTEXT).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({ code: 'context_in_use' });
    expect(await provider.contexts.delete(OURS, CONTEXT)).toBe(false);
  });
});

describe('BrowserbaseProvider.create with a context', () => {
  it('passes contextPersist as browserSettings.context.persist', async () => {
    browserbase().post('/v1/sessions').reply(201, created, JSON_HEADERS);
    await build().provider.create({ ...request, contextPersist: false });
    expect((seen[0]!.body as { browserSettings: unknown }).browserSettings).toEqual({
      context: { id: request.contextId, persist: false },
    });
  });
});
