import { AsyncLocalStorage } from 'node:async_hooks';
import { AuthError, ConflictError, DomainError, UnavailableError } from '@browserdeck/domain';
import {
  assertProblem,
  createTestApp,
  type TestApp,
  type TestAppOptions,
} from '@browserdeck/testing/adapters';
import { afterEach, describe, expect, it } from 'vitest';

let t: TestApp;
async function start(options?: TestAppOptions): Promise<TestApp> {
  t = await createTestApp(options);
  return t;
}
afterEach(() => t?.close());

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const signUp = (init: RequestInit) => t.request('/v1/auth/signup', { method: 'POST', ...init });

describe('X-Request-Id', () => {
  it('echoes a sane caller id, on success and on errors', async () => {
    await start();
    const ok = await t.request('/healthz', { headers: { 'X-Request-Id': 'trace-1.2:abc_D' } });
    expect(ok.headers.get('x-request-id')).toBe('trace-1.2:abc_D');
    const missing = await t.request('/nowhere', { headers: { 'X-Request-Id': 'req-404' } });
    expect((await assertProblem(missing, 404, 'not_found')).requestId).toBe('req-404');
  });

  it.each([['with spaces'], ['x'.repeat(129)], ['<script>'], ['']])('replaces %j with a UUID', async (id) => {
    await start();
    const res = await t.request('/healthz', { headers: { 'X-Request-Id': id } });
    expect(res.headers.get('x-request-id')).toMatch(UUID);
  });

  it('generates a distinct UUID per request when none is sent', async () => {
    await start();
    const [a, b] = await Promise.all([t.request('/healthz'), t.request('/v1/auth/me')]);
    expect(a.headers.get('x-request-id')).toMatch(UUID);
    expect(b.headers.get('x-request-id')).toMatch(UUID);
    expect(a.headers.get('x-request-id')).not.toBe(b.headers.get('x-request-id'));
  });
});

describe('unknown routes and methods', () => {
  it.each([
    '/',
    '/v1',
    '/v1/nothing',
    '/v1/projects/0190b000-0000-7000-8000-000000000001/unknown',
    '/v2/projects',
  ])('answers 404 not_found problem for %s', async (path) => {
    await start();
    await assertProblem(await t.request(path), 404, 'not_found');
  });

  it('answers 404 for an unknown action after a colon', async () => {
    await start();
    await assertProblem(
      await t.request('/v1/projects/0190b000-0000-7000-8000-000000000001:explode', { method: 'POST' }),
      404,
      'not_found',
    );
  });

  it.each([
    ['PUT', '/v1/projects', 'GET, HEAD, POST'],
    ['DELETE', '/v1/auth/signup', 'POST'],
    ['GET', '/v1/auth/signout', 'POST'],
    ['POST', '/v1/auth/me', 'GET, HEAD'],
    ['POST', '/v1/projects/0190b000-0000-7000-8000-000000000001', 'GET, HEAD, PATCH, DELETE'],
    ['GET', '/v1/projects/0190b000-0000-7000-8000-000000000001:archive', 'POST'],
    ['DELETE', '/healthz', 'GET, HEAD'],
  ])('answers %s %s with 405 method_not_allowed and Allow: %s', async (method, path, allow) => {
    await start();
    const res = await t.request(path, { method });
    expect(res.headers.get('allow')).toBe(allow);
    await assertProblem(res, 405, 'method_not_allowed');
  });

  it('answers OPTIONS with 204 and Allow', async () => {
    await start();
    const res = await t.request('/v1/projects', { method: 'OPTIONS' });
    expect(res.status).toBe(204);
    expect(res.headers.get('allow')).toBe('GET, HEAD, POST');
  });

  it('serves HEAD for GET routes without a body', async () => {
    await start();
    const res = await t.request('/healthz', { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
  });
});

describe('request bodies', () => {
  const valid = JSON.stringify({ email: 'body@example.com', password: 'long enough' });

  it.each([
    ['no Content-Type', undefined],
    ['text/plain', 'text/plain'],
    ['form data', 'application/x-www-form-urlencoded'],
    ['a non-UTF-8 charset', 'application/json; charset=latin1'],
  ])('answers 415 unsupported_media_type for %s', async (_label, contentType) => {
    await start();
    const headers: Record<string, string> = contentType ? { 'Content-Type': contentType } : {};
    // fetch adds text/plain for a string body; a Uint8Array body has no type of its own.
    await assertProblem(
      await signUp({ body: new TextEncoder().encode(valid), headers }),
      415,
      'unsupported_media_type',
    );
  });

  it('accepts application/json with a UTF-8 charset', async () => {
    await start();
    const res = await signUp({ body: valid, headers: { 'Content-Type': 'application/json; charset=UTF-8' } });
    expect(res.status).toBe(201);
  });

  it('answers 413 payload_too_large from Content-Length before reading', async () => {
    await start();
    const body = JSON.stringify({
      email: 'big@example.com',
      password: 'long enough',
      metadata: { x: 'y'.repeat(1024 * 1024) },
    });
    await assertProblem(
      await signUp({ body, headers: { 'Content-Type': 'application/json' } }),
      413,
      'payload_too_large',
    );
    expect((await t.request('/healthz')).status).toBe(200);
  });

  it('answers 413 when a chunked body grows past 1 MiB while streaming', async () => {
    await start();
    const chunk = new TextEncoder().encode(' '.repeat(64 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 20) return controller.close();
        sent++;
        controller.enqueue(chunk);
      },
    });
    const res = await fetch(`${t.baseUrl}/v1/auth/signup`, {
      method: 'POST',
      body: stream,
      headers: { 'Content-Type': 'application/json' },
      duplex: 'half',
    } as RequestInit);
    expect(res.headers.get('content-length')).not.toBeNull();
    await assertProblem(res, 413, 'payload_too_large');
  });

  it('accepts a body of just under 1 MiB', async () => {
    await start();
    const body = `${valid}${' '.repeat(1024 * 1024 - valid.length)}`;
    expect(Buffer.byteLength(body)).toBe(1024 * 1024);
    expect((await signUp({ body, headers: { 'Content-Type': 'application/json' } })).status).toBe(201);
  });

  it.each([
    ['truncated JSON', '{"email": "x@example.com",'],
    ['a single quote object', "{'email': 'x'}"],
    ['invalid UTF-8', new Uint8Array([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d])],
  ])('answers 400 malformed_json for %s, without echoing the body', async (_label, body) => {
    await start();
    const problem = await assertProblem(
      await signUp({ body, headers: { 'Content-Type': 'application/json' } }),
      400,
      'malformed_json',
    );
    expect(problem.detail).not.toContain('email');
  });

  it.each([
    ['an array', '[]'],
    ['a string', '"x"'],
    ['null', 'null'],
    ['a number', '1'],
  ])('answers 400 validation_failed when the body is %s instead of an object', async (_label, body) => {
    await start();
    const problem = await assertProblem(
      await signUp({ body, headers: { 'Content-Type': 'application/json' } }),
      400,
      'validation_failed',
    );
    expect(problem.errors).toEqual([{ path: '', message: expect.any(String) }]);
  });

  it('answers 400 validation_failed when a required body is missing', async () => {
    await start();
    const problem = await assertProblem(await signUp({}), 400, 'validation_failed');
    expect(problem.errors).toEqual([{ path: '', message: 'a JSON body is required' }]);
  });

  it('names every failing field at once, unknown ones by their own name', async () => {
    await start();
    const res = await t.request('/v1/auth/signup', {
      method: 'POST',
      json: { email: 'bad', password: 'short', timeout: 5 },
    });
    const problem = await assertProblem(res, 400, 'validation_failed');
    expect(problem.errors?.map((e) => e.path).sort()).toEqual(['email', 'password', 'timeout']);
    expect(problem.errors?.find((e) => e.path === 'timeout')?.message).toBe('is not a known field');
    expect(problem.detail).toContain('timeout');
  });
});

describe('error mapping', () => {
  // The status table itself is under test: some of these codes (provider faults) are ones
  // `/v1/auth/me` cannot answer, so this app does not hold answers to the route's documented codes.
  const failingMe = (error: unknown): TestAppOptions => ({
    overrides: {
      useCases: { auth: { getCurrentUser: { execute: () => Promise.reject(error) } } },
      http: { validateResponses: false },
    },
  });
  async function meAs(options: TestAppOptions): Promise<Response> {
    await start(options);
    const user = await t.signUpAndIn();
    return t.request('/v1/auth/me', { token: user.accessToken, headers: { 'X-Request-Id': 'req-err' } });
  }

  it('answers an unexpected error with 500 internal, saying nothing more, and logs it with the request id', async () => {
    const res = await meAs(failingMe(new Error('SELECT password_hash FROM users -- boom')));
    const problem = await assertProblem(res, 500, 'internal');
    expect(JSON.stringify(problem)).not.toMatch(/SELECT|boom|password_hash|stack/);
    const logged = t.logs.find((l) => l.msg === 'unhandled error');
    expect(logged).toMatchObject({ requestId: 'req-err', level: 50 });
    expect(JSON.stringify(logged)).toContain('SELECT password_hash');
  });

  it('honours translateError: a translated database error answers with its domain code', async () => {
    const dbError = Object.assign(new Error('duplicate key value violates unique constraint'), {
      code: '23505',
    });
    await start({
      overrides: {
        useCases: { projects: { create: { execute: () => Promise.reject(dbError) } } },
        database: {
          translateError: (error) =>
            error === dbError
              ? new ConflictError('slug_taken', 'You already have a project with that slug.')
              : undefined,
        },
      },
    });
    const user = await t.signUpAndIn();
    const problem = await assertProblem(
      await t.request('/v1/projects', { method: 'POST', json: { name: 'X' }, token: user.accessToken }),
      409,
      'slug_taken',
    );
    expect(problem.detail).not.toContain('duplicate key');
  });

  it('answers 500 when translateError does not recognise the error (or throws)', async () => {
    const res = await meAs({
      overrides: {
        useCases: { auth: { getCurrentUser: { execute: () => Promise.reject(new Error('weird')) } } },
        database: {
          translateError: () => {
            throw new Error('translator broke');
          },
        },
      },
    });
    await assertProblem(res, 500, 'internal');
  });

  it.each([
    [
      new UnavailableError('identity_unavailable', 'The identity provider cannot be reached.'),
      503,
      undefined,
    ],
    [new DomainError('provider_rate_limited', 'Concurrency limit reached.', { retryAfterSec: 7 }), 429, '7'],
    [new DomainError('provider_timeout', 'The provider did not answer.'), 504, undefined],
    [new DomainError('provider_error', 'The provider failed.'), 502, undefined],
    [new AuthError('unauthorized', 'Revoked.'), 401, undefined],
  ])('maps %s to its status and Retry-After', async (error, status, retryAfter) => {
    const res = await meAs(failingMe(error));
    expect(res.headers.get('retry-after')).toBe(retryAfter ?? null);
    const problem = await assertProblem(res, status, error.code);
    expect(problem.detail).toBe(error.message);
  });

  it('cuts a slow request off with 503 request_timeout', async () => {
    const slow = {
      execute: () =>
        new Promise<never>((_resolve, reject) => setTimeout(() => reject(new Error('too late')), 500)),
    };
    await start({
      overrides: { useCases: { auth: { getCurrentUser: slow as never } }, http: { requestTimeoutMs: 50 } },
    });
    const user = await t.signUpAndIn();
    const startedAt = Date.now();
    await assertProblem(await t.request('/v1/auth/me', { token: user.accessToken }), 503, 'request_timeout');
    expect(Date.now() - startedAt).toBeLessThan(400);
  });
});

describe('CORS', () => {
  it('is closed unless configured', async () => {
    await start();
    const res = await t.request('/healthz', { headers: { Origin: 'https://app.example' } });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('allows configured origins, answers their preflight and exposes X-Request-Id', async () => {
    await start({ overrides: { http: { corsOrigins: ['https://app.example'] } } });
    const res = await t.request('/v1/auth/me', { headers: { Origin: 'https://app.example' } });
    expect(res.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(res.headers.get('access-control-expose-headers')).toContain('X-Request-Id');
    const preflight = await t.request('/v1/projects', {
      method: 'OPTIONS',
      headers: { Origin: 'https://app.example', 'Access-Control-Request-Method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')).toContain('Authorization');
    const other = await t.request('/healthz', { headers: { Origin: 'https://evil.example' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('logging', () => {
  it('logs one line per request and never a password or token', async () => {
    await start();
    const user = await t.signUpAndIn('secretive@example.com', 'hunter2-password');
    await t.request('/v1/auth/refresh', { method: 'POST', json: { refresh_token: user.refreshToken } });
    await t.request('/v1/auth/me', { token: user.accessToken, headers: { 'X-Request-Id': 'req-log' } });
    const line = t.logs.find((l) => l.requestId === 'req-log');
    expect(line).toMatchObject({ method: 'GET', path: '/v1/auth/me', status: 200, msg: 'request completed' });
    const all = t.rawLogs.join('\n');
    for (const secret of ['hunter2-password', user.accessToken, user.refreshToken])
      expect(all).not.toContain(secret);
  });

  it('redacts credentials if a log line ever carries them', async () => {
    await start({
      overrides: {
        useCases: {
          auth: {
            getCurrentUser: {
              execute: async () => {
                throw Object.assign(new Error('boom'), {
                  headers: { authorization: 'Bearer leaked' },
                  password: 'pw-leaked',
                });
              },
            },
          },
        },
      },
    });
    const user = await t.signUpAndIn();
    await t.request('/v1/auth/me', { token: user.accessToken });
    expect(t.rawLogs.join('\n')).toContain('boom');
    expect(t.rawLogs.join('\n')).not.toMatch(/leaked/);
  });
});

describe('client address', () => {
  async function signInsUntilLimited(headers: Record<string, string>): Promise<number> {
    for (let i = 1; i <= 61; i++) {
      const res = await t.request('/v1/auth/signin', {
        method: 'POST',
        json: { email: `a${i}@example.com`, password: 'whatever1' },
        headers,
      });
      if (res.status === 429) return i;
    }
    return -1;
  }

  it('ignores X-Forwarded-For unless trustProxy is set', async () => {
    await start();
    expect(await signInsUntilLimited({ 'X-Forwarded-For': '203.0.113.1' })).toBe(61);
    expect(await signInsUntilLimited({ 'X-Forwarded-For': '203.0.113.2' })).toBe(1);
  });

  it('counts per forwarded address behind a trusted proxy', async () => {
    await start({ overrides: { http: { trustProxy: true } } });
    expect(await signInsUntilLimited({ 'X-Forwarded-For': '203.0.113.1' })).toBe(61);
    // A fresh forwarded address has its own 60 attempts.
    expect(await signInsUntilLimited({ 'X-Forwarded-For': '203.0.113.2' })).toBe(61);
  });

  it('with a hop count of 1 (TRUST_PROXY=1), counts per address the nearest proxy forwarded', async () => {
    await start({ overrides: { http: { trustProxy: 1 } } });
    expect(await signInsUntilLimited({ 'X-Forwarded-For': '203.0.113.1' })).toBe(61);
    expect(await signInsUntilLimited({ 'X-Forwarded-For': '203.0.113.2' })).toBe(61);
    // Only one hop is trusted: what the client itself put before it does not count.
    expect(await signInsUntilLimited({ 'X-Forwarded-For': '198.51.100.9, 203.0.113.2' })).toBe(1);
    const line = t.logs.find((l) => l.msg === 'request completed' && l.status === 429);
    expect(line).toMatchObject({ clientAddress: '203.0.113.1' });
  });

  it('with a CIDR list, takes a forwarded address only through listed peers', async () => {
    await start({ overrides: { http: { trustProxy: '10.0.0.0/8, fd00::/8' } } });
    // The peer (127.0.0.1) is not listed: X-Forwarded-For is ignored, one bucket for both.
    expect(await signInsUntilLimited({ 'X-Forwarded-For': '203.0.113.1' })).toBe(61);
    expect(await signInsUntilLimited({ 'X-Forwarded-For': '203.0.113.2' })).toBe(1);
  });

  it('walks a CIDR list hop by hop: the nearest untrusted address is the client', async () => {
    await start({ overrides: { http: { trustProxy: 'loopback,10.0.0.0/8' } } });
    // 127.0.0.1 and 10.1.2.3 are trusted proxies: the clients are 203.0.113.1 and .2.
    expect(await signInsUntilLimited({ 'X-Forwarded-For': '203.0.113.1, 10.1.2.3' })).toBe(61);
    expect(await signInsUntilLimited({ 'X-Forwarded-For': '203.0.113.2, 10.1.2.3' })).toBe(61);
    // 192.0.2.50 is not trusted: it is the client, whatever it says came before it.
    expect(await signInsUntilLimited({ 'X-Forwarded-For': '203.0.113.3, 192.0.2.50' })).toBe(61);
    expect(await signInsUntilLimited({ 'X-Forwarded-For': '203.0.113.4, 192.0.2.50' })).toBe(1);
  });
});

describe('requestScope', () => {
  it('runs every routed request inside the scope the host provides', async () => {
    const scope = new AsyncLocalStorage<string>();
    let seen: string | undefined;
    await start({
      overrides: {
        database: {
          requestScope: (next) => scope.run('per-request', next),
          checkReadiness: async () => {
            seen = scope.getStore();
          },
        },
      },
    });
    expect((await t.request('/readyz')).status).toBe(200);
    expect(seen).toBe('per-request');
  });
});
