import { describe, expect, it } from 'vitest';
import { ApiClient, REFRESH_MARGIN_MS } from './ApiClient.ts';
import { ApiError } from './ApiError.ts';
import { REFRESH_TOKEN_KEY, TokenStore } from './TokenStore.ts';

interface Call {
  method: string;
  url: string;
  authorization: string | null;
  body: unknown;
  /** The `Last-Event-ID` header, when one was sent (the run log stream's resume point). */
  lastEventId?: string | undefined;
}

type Handler = (call: Call) => Response | Promise<Response>;

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': status >= 400 ? 'application/problem+json' : 'application/json', ...headers },
  });

const grant = (n: number, expiresIn = 900) => ({
  access_token: `access-${n}`,
  refresh_token: `refresh-${n}`,
  token_type: 'bearer',
  expires_in: expiresIn,
  expires_at: '2026-01-01T00:15:00.000Z',
  user: { id: 'u1', email: 'a@example.com' },
});

const unauthorized = () =>
  json(401, {
    type: '/docs#error-unauthorized',
    title: 'Unauthorized',
    status: 401,
    detail: 'Expired.',
    code: 'unauthorized',
    requestId: 'r1',
  });

/** A client over a scripted fetch, a Map as localStorage and a settable clock. */
function setUp(handler: Handler, options: { stored?: string; prefix?: string } = {}) {
  const storage = new Map<string, string>();
  if (options.stored) storage.set(REFRESH_TOKEN_KEY, options.stored);
  const store = {
    getItem: (key: string) => storage.get(key) ?? null,
    setItem: (key: string, value: string) => void storage.set(key, value),
    removeItem: (key: string) => void storage.delete(key),
  };
  const calls: Call[] = [];
  const signedOut: string[] = [];
  let now = 1_000_000;
  const tokens = new TokenStore(store);
  // openapi-fetch hands fetch a Request (absolute, from the base URL): the call keeps its path.
  const fetchFake = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const text = await request.text();
    const call: Call = {
      method: request.method,
      url: `${url.pathname}${url.search}`,
      authorization: request.headers.get('Authorization'),
      body: text ? JSON.parse(text) : undefined,
      lastEventId: request.headers.get('Last-Event-ID') ?? undefined,
    };
    calls.push(call);
    return handler(call);
  }) as typeof fetch;
  const client = new ApiClient({
    fetch: fetchFake,
    baseUrl: `http://127.0.0.1${options.prefix ?? ''}`,
    tokens,
    now: () => now,
    onSignedOut: (reason) => signedOut.push(reason),
  });
  return {
    client,
    calls,
    signedOut,
    storage,
    tokens,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

describe('ApiClient', () => {
  it('signs in, then sends the access token, JSON bodies and queries under the API prefix', async () => {
    const t = setUp(
      (call) =>
        call.url.endsWith('/signin')
          ? json(200, grant(1))
          : call.method === 'POST'
            ? json(201, { id: 'p1', name: 'P' })
            : json(200, { sessions: [] }),
      { prefix: '/browserdeck' },
    );
    const user = await t.client.signIn('a@example.com', 'secret pass');
    expect(user).toEqual({ id: 'u1', email: 'a@example.com' });
    expect(t.storage.get(REFRESH_TOKEN_KEY)).toBe('refresh-1');
    expect(t.tokens.accessToken).toBe('access-1');
    const created = await t.client.send((api) => api.POST('/v1/projects', { body: { name: 'P' } }));
    expect(created).toEqual({ id: 'p1', name: 'P' });
    const page = await t.client.send((api) =>
      api.GET('/v1/{provider}/projects/{project_id}/sessions', {
        params: {
          path: { provider: 'cloudbrowser', project_id: 'p/1' },
          query: { status: undefined, limit: 20, offset: 0 },
        },
      }),
    );
    expect(page).toEqual({ sessions: [] });
    expect(t.calls[0]).toMatchObject({
      method: 'POST',
      url: '/browserdeck/v1/auth/signin',
      authorization: null,
    });
    expect(t.calls[1]).toEqual({
      method: 'POST',
      url: '/browserdeck/v1/projects',
      authorization: 'Bearer access-1',
      body: { name: 'P' },
    });
    expect(t.calls[2]).toEqual({
      method: 'GET',
      url: '/browserdeck/v1/cloudbrowser/projects/p%2F1/sessions?limit=20&offset=0',
      authorization: 'Bearer access-1',
      body: undefined,
    });
  });

  it('turns a problem answer into an ApiError with its title, detail, fields and request id', async () => {
    const t = setUp(() =>
      json(400, {
        type: '/docs#error-validation_failed',
        title: 'Validation failed',
        status: 400,
        detail: 'The body is invalid.',
        code: 'validation_failed',
        requestId: 'req-9',
        errors: [{ path: 'envVars.1BAD', message: 'Invalid key' }],
      }),
    );
    const error = await t.client
      .send((api) => api.POST('/v1/auth/signup', { body: { email: 'a@example.com', password: 'x' } }), {
        auth: false,
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    const problem = error as ApiError;
    expect(problem).toMatchObject({
      status: 400,
      title: 'Validation failed',
      detail: 'The body is invalid.',
      code: 'validation_failed',
      requestId: 'req-9',
    });
    expect(problem.fieldMessage('envVars')).toBe('Invalid key');
    expect(problem.fieldMessage('name')).toBeUndefined();
  });

  it('answers a request that got no answer as an ApiError with status 0', async () => {
    const t = setUp(() => {
      throw new TypeError('fetch failed');
    });
    const error = (await t.client
      .send((api) => api.GET('/v1/projects'), { auth: false })
      .catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(0);
    expect(error.detail).toBe('fetch failed');
  });

  it('after a 401, refreshes once, keeps the rotated tokens and retries with the new access token', async () => {
    let refreshed = 0;
    const t = setUp((call) => {
      if (call.url.endsWith('/signin')) return json(200, grant(1));
      if (call.url.endsWith('/refresh')) return json(200, grant(2 + refreshed++));
      return call.authorization === 'Bearer access-2' ? json(200, []) : unauthorized();
    });
    await t.client.signIn('a@example.com', 'secret pass');
    expect(await t.client.send((api) => api.GET('/v1/projects'))).toEqual([]);
    expect(t.calls.map((c) => `${c.method} ${c.url} ${c.authorization}`)).toEqual([
      'POST /v1/auth/signin null',
      'GET /v1/projects Bearer access-1',
      'POST /v1/auth/refresh null',
      'GET /v1/projects Bearer access-2',
    ]);
    expect(t.calls[2]?.body).toEqual({ refresh_token: 'refresh-1' });
    expect(t.storage.get(REFRESH_TOKEN_KEY)).toBe('refresh-2');
    expect(t.signedOut).toEqual([]);
  });

  it('refreshes before the access token expires, without waiting for a 401', async () => {
    const t = setUp((call) => {
      if (call.url.endsWith('/signin')) return json(200, grant(1, 900));
      if (call.url.endsWith('/refresh')) return json(200, grant(2, 900));
      return json(200, []);
    });
    await t.client.signIn('a@example.com', 'secret pass');
    t.advance(900_000 - REFRESH_MARGIN_MS - 1);
    await t.client.send((api) => api.GET('/v1/projects'));
    expect(t.calls.at(-1)?.authorization).toBe('Bearer access-1');
    t.advance(2);
    await t.client.send((api) => api.GET('/v1/projects'));
    expect(t.calls.slice(-2).map((c) => `${c.url} ${c.authorization}`)).toEqual([
      '/v1/auth/refresh null',
      '/v1/projects Bearer access-2',
    ]);
  });

  it('shares one refresh between concurrent requests (a rotated token is never sent twice)', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const t = setUp(
      async (call) => {
        if (call.url.endsWith('/refresh')) {
          await gate;
          return json(200, grant(2));
        }
        return json(200, { ok: call.authorization });
      },
      { stored: 'refresh-1' },
    );
    const answers = Promise.all([
      t.client.send((api) => api.GET('/v1/projects')),
      t.client.send((api) => api.GET('/v1/auth/me')),
      t.client.send((api) =>
        api.GET('/v1/projects/{project_id}', { params: { path: { project_id: 'p1' } } }),
      ),
    ]);
    release();
    expect(await answers).toEqual([
      { ok: 'Bearer access-2' },
      { ok: 'Bearer access-2' },
      { ok: 'Bearer access-2' },
    ]);
    expect(t.calls.filter((c) => c.url.endsWith('/refresh'))).toHaveLength(1);
  });

  it('ends the sign-in when the refresh is refused, and when the retry is refused too', async () => {
    const refused = setUp(
      (call) =>
        call.url.endsWith('/refresh')
          ? json(401, {
              title: 'Invalid refresh token',
              status: 401,
              detail: 'Reused.',
              code: 'invalid_refresh_token',
            })
          : unauthorized(),
      { stored: 'refresh-1' },
    );
    const error = (await refused.client
      .send((api) => api.GET('/v1/projects'))
      .catch((e: unknown) => e)) as ApiError;
    expect(error.code).toBe('invalid_refresh_token');
    expect(refused.signedOut).toEqual(['expired']);
    expect(refused.storage.has(REFRESH_TOKEN_KEY)).toBe(false);

    const stillRefused = setUp(
      (call) => (call.url.endsWith('/refresh') ? json(200, grant(2)) : unauthorized()),
      {
        stored: 'refresh-1',
      },
    );
    const again = (await stillRefused.client
      .send((api) => api.GET('/v1/projects'))
      .catch((e: unknown) => e)) as ApiError;
    expect(again.status).toBe(401);
    expect(stillRefused.calls.filter((c) => c.url === '/v1/projects')).toHaveLength(2);
    expect(stillRefused.signedOut).toEqual(['expired']);
    expect(stillRefused.tokens.accessToken).toBeUndefined();
  });

  it('fetchAuthorized: sends the access token with the caller’s headers, refreshes after a 401 and retries once', async () => {
    let refreshed = 0;
    const t = setUp((call) => {
      if (call.url.endsWith('/signin')) return json(200, grant(1));
      if (call.url.endsWith('/refresh')) return json(200, grant(2 + refreshed++));
      return call.authorization === 'Bearer access-2'
        ? new Response('retry: 1\n\n', { status: 200, headers: { 'Content-Type': 'text/event-stream' } })
        : unauthorized();
    });
    const wrapped = t.client;
    await wrapped.signIn('a@example.com', 'secret pass');
    const url = wrapped.urlOf('/v1/cloudbrowser/projects/p1/runs/r1/logs/stream');
    expect(url).toBe('http://127.0.0.1/v1/cloudbrowser/projects/p1/runs/r1/logs/stream');
    const answer = await wrapped.fetchAuthorized(url, {
      headers: { Accept: 'text/event-stream', 'Last-Event-ID': '7' },
    });
    expect(answer.status).toBe(200);
    expect(await answer.text()).toBe('retry: 1\n\n');
    expect(t.calls.map((c) => `${c.method} ${c.url} ${c.authorization}`)).toEqual([
      'POST /v1/auth/signin null',
      'GET /v1/cloudbrowser/projects/p1/runs/r1/logs/stream Bearer access-1',
      'POST /v1/auth/refresh null',
      'GET /v1/cloudbrowser/projects/p1/runs/r1/logs/stream Bearer access-2',
    ]);
    // The caller's headers go along on both attempts.
    expect(t.calls.slice(1).map((c) => c.lastEventId)).toEqual(['7', undefined, '7']);
    expect(t.signedOut).toEqual([]);
  });

  it('fetchAuthorized: answers a second 401 as it came and ends the sign-in', async () => {
    const t = setUp((call) => (call.url.endsWith('/refresh') ? json(200, grant(2)) : unauthorized()), {
      stored: 'refresh-1',
    });
    const answer = await t.client.fetchAuthorized(t.client.urlOf('/v1/x'), {});
    expect(answer.status).toBe(401);
    expect(t.calls.filter((c) => c.url === '/v1/x')).toHaveLength(2);
    expect(t.signedOut).toEqual(['expired']);
    expect(t.tokens.accessToken).toBeUndefined();
  });

  it('resumes a kept sign-in after a reload, and forgets one the server refuses', async () => {
    const kept = setUp(() => json(200, grant(5)), { stored: 'refresh-4' });
    expect(await kept.client.resume()).toEqual({ id: 'u1', email: 'a@example.com' });
    expect(kept.tokens.accessToken).toBe('access-5');
    expect(kept.storage.get(REFRESH_TOKEN_KEY)).toBe('refresh-5');

    const refused = setUp(
      () =>
        json(401, {
          title: 'Invalid refresh token',
          status: 401,
          detail: 'x',
          code: 'invalid_refresh_token',
        }),
      {
        stored: 'refresh-4',
      },
    );
    expect(await refused.client.resume()).toBeUndefined();
    expect(refused.storage.has(REFRESH_TOKEN_KEY)).toBe(false);

    const none = setUp(() => json(500, {}));
    expect(await none.client.resume()).toBeUndefined();
    expect(none.calls).toEqual([]);
  });

  it('signs out on the server with the access token, then forgets the tokens even if the server fails', async () => {
    const t = setUp((call) =>
      call.url.endsWith('/signin') ? json(200, grant(1)) : json(200, { message: 'Signed out' }),
    );
    await t.client.signIn('a@example.com', 'secret pass');
    await t.client.signOut();
    expect(t.calls.at(-1)).toMatchObject({
      method: 'POST',
      url: '/v1/auth/signout',
      authorization: 'Bearer access-1',
    });
    expect(t.storage.has(REFRESH_TOKEN_KEY)).toBe(false);
    expect(t.tokens.accessToken).toBeUndefined();
    expect(t.signedOut).toEqual(['signed-out']);

    const failing = setUp((call) => {
      if (call.url.endsWith('/signin')) return json(200, grant(1));
      throw new TypeError('offline');
    });
    await failing.client.signIn('a@example.com', 'secret pass');
    await expect(failing.client.signOut()).rejects.toThrow('offline');
    expect(failing.storage.has(REFRESH_TOKEN_KEY)).toBe(false);
    expect(failing.signedOut).toEqual(['signed-out']);
  });
});
