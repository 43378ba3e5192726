import {
  assertProblem,
  createTestApp,
  type TestApp,
  type TestAppOptions,
  type TestAppOverrides,
} from '@browserdeck/testing/adapters';
import { afterEach, describe, expect, it } from 'vitest';
import { toDatabaseError } from '../../../persistence/mikro-orm/toDatabaseError.ts';

/**
 * What the API answers when the database goes away: use cases failing with a driver's connection
 * error become 503 `database_unavailable` through the persistence adapter's real translator, and
 * `/readyz` follows the database down and up again without a restart.
 */
let t: TestApp;
afterEach(() => t.close());

const refused = () =>
  Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:5432 (user=browserdeck password=s3cret)'), {
    code: 'ECONNREFUSED',
  });

async function start(options: TestAppOptions = {}): Promise<{ token: string; projectId: string }> {
  t = await createTestApp({
    ...options,
    overrides: {
      ...options.overrides,
      database: { translateError: toDatabaseError, ...options.overrides?.database },
    },
  });
  const user = await t.signUpAndIn();
  const res = await t.request('/v1/projects', {
    method: 'POST',
    token: user.accessToken,
    json: { name: 'DB' },
  });
  return { token: user.accessToken, projectId: ((await res.json()) as { id: string }).id };
}

const failing = { execute: () => Promise.reject(refused()) };

describe('a use case failing because the database cannot be reached', () => {
  it.each<[string, TestAppOverrides['useCases'], string, (projectId: string) => string, unknown]>([
    ['listProjects', { projects: { list: failing } }, 'GET', () => '/v1/projects', undefined],
    ['getProject', { projects: { get: failing } }, 'GET', (id) => `/v1/projects/${id}`, undefined],
    ['createProject', { projects: { create: failing } }, 'POST', () => '/v1/projects', { name: 'Another' }],
    ['getCurrentUser', { auth: { getCurrentUser: failing } }, 'GET', () => '/v1/auth/me', undefined],
    [
      'listSessions',
      { sessions: { list: failing } },
      'GET',
      (id) => `/v1/browserbase/projects/${id}/sessions`,
      undefined,
    ],
    [
      'getSessionStats',
      { sessions: { stats: failing } },
      'GET',
      (id) => `/v1/browserbase/projects/${id}/sessions/dashboard/stats`,
      undefined,
    ],
    [
      'createAgent',
      { agents: { create: failing } },
      'POST',
      (id) => `/v1/browserbase/projects/${id}/agents`,
      { name: 'a' },
    ],
  ])(
    '%s → 503 database_unavailable, without the driver message',
    async (_name, useCases, method, path, json) => {
      const { token, projectId } = await start({ overrides: { useCases } });
      const res = await t.request(path(projectId), { method, token, ...(json ? { json } : {}) });
      const problem = await assertProblem(res, 503, 'database_unavailable');
      expect(JSON.stringify(problem)).not.toMatch(/ECONNREFUSED|5432|password|s3cret/);
      expect(t.rawLogs.join('\n')).toContain('ECONNREFUSED');
    },
  );

  it('a storing failure of that kind after the provider started a browser: 503, browser released', async () => {
    const { token, projectId } = await start();
    t.sessions.failNextAdd = refused();
    const res = await t.request(`/v1/browserbase/projects/${projectId}/sessions`, {
      method: 'POST',
      token,
      json: {},
    });
    await assertProblem(res, 503, 'database_unavailable');
    expect(t.provider.calls.map((c) => c.op)).toEqual(['create', 'release']);
    expect(t.provider.running).toEqual([]);
    expect((await t.sessions.list(projectId, { limit: 100, offset: 0 })).total).toBe(0);
  });

  it('any other failure stays 500 internal (the translator does not guess)', async () => {
    const { token } = await start({
      overrides: {
        useCases: { projects: { list: { execute: () => Promise.reject(new TypeError('x is undefined')) } } },
      },
    });
    await assertProblem(await t.request('/v1/projects', { token }), 500, 'internal');
  });
});

describe('/readyz while the database goes down and comes back', () => {
  it('answers 503 while checkReadiness throws and 200 again once it recovers, in the same app', async () => {
    let down = false;
    await start({
      overrides: {
        database: {
          checkReadiness: async () => {
            if (down) throw refused();
          },
        },
      },
    });
    const ready = async () => (await t.request('/readyz')).status;

    expect(await ready()).toBe(200);
    down = true;
    const problem = await assertProblem(await t.request('/readyz'), 503, 'database_unavailable');
    expect(problem.detail).not.toMatch(/ECONNREFUSED|s3cret/);
    expect(await ready()).toBe(503);
    down = false;
    expect(await ready()).toBe(200);
    down = true;
    expect(await ready()).toBe(503);
    down = false;
    expect(await ready()).toBe(200);
    expect((await t.request('/healthz')).status).toBe(200);
  });
});

describe('a session whose refreshed state the database refuses', () => {
  it('GET answers 200 with the stored state and X-Sync-Error; release still ends it (200 COMPLETED)', async () => {
    const { token, projectId } = await start();
    const base = `/v1/browserbase/projects/${projectId}/sessions`;
    const created = (await (await t.request(base, { method: 'POST', token, json: {} })).json()) as {
      id: string;
      providerSessionId: string;
    };
    t.provider.setStatus(created.providerSessionId, 'PENDING');
    t.sessions.failNextUpdates(3, new RangeError('Invalid time value'));

    const got = await t.request(`${base}/${created.id}`, { token });
    expect(got.status).toBe(200);
    expect(got.headers.get('X-Sync-Error')).toBe('internal');
    expect(((await got.json()) as { status: string }).status).toBe('RUNNING');
    expect(t.rawLogs.join('\n')).toContain('Invalid time value');

    const released = await t.request(`${base}/${created.id}:release`, { method: 'POST', token });
    expect(released.status).toBe(200);
    expect(((await released.json()) as { status: string }).status).toBe('COMPLETED');
    expect(t.provider.running).toEqual([]);
    const again = await t.request(`${base}/${created.id}`, { token });
    expect(again.headers.get('X-Sync-Error')).toBeNull();
    expect(((await again.json()) as { status: string }).status).toBe('COMPLETED');
  });
});
