import { createHash } from 'node:crypto';
import { API_KEY_NAME_MAX_LENGTH, type ApiKey } from '@browserdeck/domain';
import { assertProblem, createTestApp, type TestApp, type TestUser } from '@browserdeck/testing/adapters';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiKeySchema, CreatedApiKeySchema } from './apiKeySchemas.ts';
import type { ApiKeyJson } from './presentApiKey.ts';

let t: TestApp;
let alice: TestUser;
let projectId: string;
let keys: string;
beforeEach(async () => {
  t = await createTestApp();
  alice = await t.signUpAndIn('alice@example.com');
  projectId = await newProject('Keys', alice);
  keys = `/v1/projects/${projectId}/api-keys`;
});
afterEach(() => t.close());

const T0 = '2026-01-01T00:00:00.000Z';
const UNKNOWN = '0190b000-0000-7000-8000-00000000dead';
const KEY = /^bdk_[A-Za-z0-9_-]{43}$/;

type CreatedJson = ApiKeyJson & { key: string };

const call = (method: string, path: string, json?: unknown, token = alice.accessToken) =>
  t.request(path, { method, token, ...(json === undefined ? {} : { json }) });

async function newProject(name: string, user: TestUser): Promise<string> {
  const res = await t.request('/v1/projects', { method: 'POST', token: user.accessToken, json: { name } });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

async function create(json: unknown, path = keys): Promise<CreatedJson> {
  const res = await call('POST', path, json);
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as CreatedJson;
}

async function list(path = keys): Promise<ApiKeyJson[]> {
  const res = await call('GET', path);
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as ApiKeyJson[];
}

/** The stored row of a key, found the way authentication finds it: by its clear prefix. */
async function stored(created: CreatedJson): Promise<ApiKey> {
  const row = await t.apiKeys.findByPrefix(created.prefix);
  if (!row) throw new Error(`no stored key with prefix ${created.prefix}`);
  return row;
}

describe('POST /v1/projects/{project_id}/api-keys', () => {
  it('creates a key: 201 with the secret shown once, in the documented shape', async () => {
    const created = await create({ name: '  CI  ' });
    expect(CreatedApiKeySchema.strict().parse(created)).toEqual(created);
    expect(Object.keys(created)).toEqual([
      'id',
      'name',
      'role',
      'prefix',
      'key',
      'createdAt',
      'expiresAt',
      'lastUsedAt',
    ]);
    expect(created).toEqual({
      id: expect.any(String),
      name: 'CI',
      role: 'developer',
      prefix: created.key.slice(0, 12),
      key: expect.stringMatching(KEY),
      createdAt: T0,
      expiresAt: null,
      lastUsedAt: null,
    });
    expect(created.prefix).toMatch(/^bdk_[A-Za-z0-9_-]{8}$/);
  });

  it('stores only the SHA-256 digest of the key, never the key itself', async () => {
    const created = await create({ name: 'CI' });
    const row = await stored(created);
    expect(row).toMatchObject({ id: created.id, projectId, ownerId: alice.id, name: 'CI', revokedAt: null });
    expect(row.digest).not.toBe(created.key);
    expect(row.digest).toBe(createHash('sha256').update(created.key).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(created.key);
    expect(JSON.stringify(row)).not.toContain(created.key.slice(12));
  });

  it('makes a different key every time, and the key works at once', async () => {
    const [one, two] = [await create({ name: 'one' }), await create({ name: 'two' })];
    expect(one.key).not.toBe(two.key);
    expect(one.prefix).not.toBe(two.prefix);
    const res = await t.request(`/v1/browserbase/projects/${projectId}/sessions`, { token: one.key });
    expect(res.status, await res.clone().text()).toBe(200);
  });

  it('keeps an expiry in the future, written back in UTC with milliseconds; null means never', async () => {
    const inAnHour = await create({ name: 'CI', expiresAt: '2026-01-01T02:00:00+01:00' });
    expect(inAnHour.expiresAt).toBe('2026-01-01T01:00:00.000Z');
    expect((await stored(inAnHour)).expiresAt?.toISOString()).toBe('2026-01-01T01:00:00.000Z');
    expect((await create({ name: 'forever', expiresAt: null })).expiresAt).toBeNull();
  });

  it.each([
    ['an unknown field', { name: 'CI', scopes: ['all'] }, 'scopes'],
    ['a missing name', {}, 'name'],
    ['an empty name', { name: '' }, 'name'],
    ['a name empty after trimming', { name: '   ' }, 'name'],
    ['a name too long', { name: 'n'.repeat(API_KEY_NAME_MAX_LENGTH + 1) }, 'name'],
    ['a name with a control character', { name: 'C\u0007I' }, 'name'],
    ['a name of the wrong type', { name: 42 }, 'name'],
    ['an expiry in the past', { name: 'CI', expiresAt: '2025-12-31T23:59:59.999Z' }, 'expiresAt'],
    ['an expiry of right now', { name: 'CI', expiresAt: T0 }, 'expiresAt'],
    ['an expiry that is not a date', { name: 'CI', expiresAt: 'tomorrow' }, 'expiresAt'],
    ['an expiry without a time zone', { name: 'CI', expiresAt: '2026-06-01T00:00:00' }, 'expiresAt'],
    ['an expiry as a number', { name: 'CI', expiresAt: 1_800_000_000_000 }, 'expiresAt'],
  ])(
    'answers 400 validation_failed naming the field for %s, and stores nothing',
    async (_label, json, field) => {
      const problem = await assertProblem(await call('POST', keys, json), 400, 'validation_failed');
      expect(problem.errors?.map((e) => e.path)).toContain(field);
      expect(await t.apiKeys.listInProject(projectId)).toEqual([]);
    },
  );

  it('accepts a name of exactly the maximum length', async () => {
    const name = 'n'.repeat(API_KEY_NAME_MAX_LENGTH);
    expect((await create({ name })).name).toBe(name);
  });

  it('answers 404 for an unknown project and for another user’s project', async () => {
    await assertProblem(
      await call('POST', `/v1/projects/${UNKNOWN}/api-keys`, { name: 'x' }),
      404,
      'not_found',
    );
    const bob = await t.signUpAndIn('bob@example.com');
    const bobs = await newProject('Bob', bob);
    await assertProblem(await call('POST', `/v1/projects/${bobs}/api-keys`, { name: 'x' }), 404, 'not_found');
    expect(await t.apiKeys.listInProject(bobs)).toEqual([]);
  });

  it('answers 400 for a project id that is not a UUID', async () => {
    const problem = await assertProblem(
      await call('POST', '/v1/projects/nope/api-keys', { name: 'x' }),
      400,
      'validation_failed',
    );
    expect(problem.errors?.map((e) => e.path)).toEqual(['project_id']);
  });
});

describe('GET /v1/projects/{project_id}/api-keys', () => {
  it('lists the keys newest first, without their secrets', async () => {
    const first = await create({ name: 'first' });
    t.clock.advance(1000);
    const second = await create({ name: 'second', expiresAt: '2027-01-01T00:00:00.000Z' });
    const listed = await list();
    expect(listed.map((k) => k.id)).toEqual([second.id, first.id]);
    for (const key of listed) {
      expect(ApiKeySchema.strict().parse(key)).toEqual(key);
      expect(key).not.toHaveProperty('key');
      expect(key).not.toHaveProperty('digest');
    }
    const { key: _secret, ...withoutSecret } = second;
    expect(listed[0]).toEqual({ ...withoutSecret, createdAt: '2026-01-01T00:00:01.000Z' });
    expect(JSON.stringify(listed)).not.toContain(first.key.slice(12));
  });

  it('lists only this project’s keys; a project without keys is an empty array', async () => {
    await create({ name: 'here' });
    const other = await newProject('Other', alice);
    expect(await list(`/v1/projects/${other}/api-keys`)).toEqual([]);
    expect((await list()).map((k) => k.name)).toEqual(['here']);
  });

  it('answers 404 for another user’s project', async () => {
    await create({ name: 'mine' });
    const bob = await t.signUpAndIn('bob@example.com');
    await assertProblem(await call('GET', keys, undefined, bob.accessToken), 404, 'not_found');
  });
});

describe('DELETE /v1/projects/{project_id}/api-keys/{key_id}', () => {
  it('revokes a key: 204, gone from the list, refused (401) from the next request on', async () => {
    const doomed = await create({ name: 'doomed' });
    const kept = await create({ name: 'kept' });
    const sessions = `/v1/browserbase/projects/${projectId}/sessions`;
    expect((await t.request(sessions, { token: doomed.key })).status).toBe(200);

    const res = await call('DELETE', `${keys}/${doomed.id}`);
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    expect((await list()).map((k) => k.id)).toEqual([kept.id]);
    expect((await stored(doomed)).revokedAt?.toISOString()).toBe(T0);
    await assertProblem(await t.request(sessions, { token: doomed.key }), 401, 'unauthorized');
    await assertProblem(
      await t.request(sessions, { headers: { 'X-BB-API-Key': doomed.key } }),
      401,
      'unauthorized',
    );
    expect((await t.request(sessions, { token: kept.key })).status).toBe(200);
  });

  it('is idempotent: revoking a revoked key answers 204 again and keeps the first revocation time', async () => {
    const doomed = await create({ name: 'doomed' });
    expect((await call('DELETE', `${keys}/${doomed.id}`)).status).toBe(204);
    t.clock.advance(60_000);
    expect((await call('DELETE', `${keys}/${doomed.id}`)).status).toBe(204);
    expect((await stored(doomed)).revokedAt?.toISOString()).toBe(T0);
  });

  it('answers 404 for an unknown key, a key of another project and another user’s project', async () => {
    const mine = await create({ name: 'mine' });
    await assertProblem(await call('DELETE', `${keys}/${UNKNOWN}`), 404, 'not_found');
    const other = await newProject('Other', alice);
    await assertProblem(await call('DELETE', `/v1/projects/${other}/api-keys/${mine.id}`), 404, 'not_found');
    const bob = await t.signUpAndIn('bob@example.com');
    await assertProblem(
      await call('DELETE', `${keys}/${mine.id}`, undefined, bob.accessToken),
      404,
      'not_found',
    );
    expect((await stored(mine)).revokedAt).toBeNull();
  });

  it('answers 400 for a key id that is not a UUID', async () => {
    const problem = await assertProblem(await call('DELETE', `${keys}/nope`), 400, 'validation_failed');
    expect(problem.errors?.map((e) => e.path)).toEqual(['key_id']);
  });
});

describe('a key cannot manage keys', () => {
  it.each([
    ['Authorization: Bearer', (key: string) => ({ Authorization: `Bearer ${key}` })],
    ['X-BB-API-Key', (key: string) => ({ 'X-BB-API-Key': key })],
  ])('answers 403 forbidden_for_api_key to create, list and revoke with %s', async (_label, headers) => {
    const { key, id } = await create({ name: 'machine' });
    const as = (method: string, path: string, json?: unknown) =>
      t.request(path, { method, headers: headers(key), ...(json === undefined ? {} : { json }) });
    await assertProblem(await as('POST', keys, { name: 'more' }), 403, 'forbidden_for_api_key');
    await assertProblem(await as('GET', keys), 403, 'forbidden_for_api_key');
    await assertProblem(await as('DELETE', `${keys}/${id}`), 403, 'forbidden_for_api_key');
    expect((await list()).map((k) => k.id)).toEqual([id]);
    expect((await stored({ id, key, prefix: key.slice(0, 12) } as CreatedJson)).revokedAt).toBeNull();
  });
});
