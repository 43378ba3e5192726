import { assertProblem, createTestApp, type TestApp, type TestUser } from '@browserdeck/testing/adapters';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProjectSchema } from './projectSchemas.ts';

let t: TestApp;
let alice: TestUser;
beforeEach(async () => {
  t = await createTestApp();
  alice = await t.signUpAndIn('alice@example.com');
});
afterEach(() => t.close());

type ProjectJson = {
  id: string;
  name: string;
  slug: string;
  archived: boolean;
  created_at: string;
  updated_at: string;
};

const call = (method: string, path: string, json?: unknown, token = alice.accessToken) =>
  t.request(path, { method, token, ...(json === undefined ? {} : { json }) });

async function create(json: unknown, token = alice.accessToken): Promise<ProjectJson> {
  const res = await call('POST', '/v1/projects', json, token);
  expect(res.status).toBe(201);
  return (await res.json()) as ProjectJson;
}

describe('POST /v1/projects', () => {
  it('creates a project: 201 with the full resource, stored for its owner', async () => {
    const project = await create({ name: '  My App  ', slug: 'my-app' });
    expect(ProjectSchema.parse(project)).toEqual(project);
    expect(project).toEqual({
      id: expect.any(String),
      name: 'My App',
      slug: 'my-app',
      archived: false,
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-01T00:00:00.000Z',
    });
    expect((await t.projects.findAccess(project.id, alice.id))?.project?.name).toBe('My App');
  });

  it('derives the slug from the name and suffixes it when taken', async () => {
    expect((await create({ name: 'Déjà Vu!' })).slug).toBe('deja-vu');
    expect((await create({ name: 'Deja vu' })).slug).toBe('deja-vu-2');
    expect((await create({ name: 'deja VU' })).slug).toBe('deja-vu-3');
  });

  it('answers 409 slug_taken for a taken slug, archived projects included; other users are free', async () => {
    const first = await create({ name: 'One', slug: 'same' });
    await call('POST', `/v1/projects/${first.id}:archive`);
    await assertProblem(await call('POST', '/v1/projects', { name: 'Two', slug: 'same' }), 409, 'slug_taken');
    const bob = await t.signUpAndIn('bob@example.com');
    expect((await create({ name: 'Bob', slug: 'same' }, bob.accessToken)).slug).toBe('same');
  });

  it.each([
    ['a bad slug', { name: 'X', slug: 'Not A Slug' }, 'slug'],
    ['a slug with a double hyphen', { name: 'X', slug: 'a--b' }, 'slug'],
    ['a too long slug', { name: 'X', slug: 'a'.repeat(65) }, 'slug'],
    ['a name too long', { name: 'n'.repeat(101) }, 'name'],
    ['an empty name after trimming', { name: '   ' }, 'name'],
    ['a missing name', { slug: 'x' }, 'name'],
    ['a name of the wrong type', { name: 42 }, 'name'],
    ['an unknown field', { name: 'X', description: 'nope' }, 'description'],
  ])('answers 400 validation_failed naming the field for %s', async (_label, json, field) => {
    const problem = await assertProblem(await call('POST', '/v1/projects', json), 400, 'validation_failed');
    expect(problem.errors?.map((e) => e.path)).toContain(field);
  });

  it('accepts a name of exactly 100 characters and a trimmed slug', async () => {
    const project = await create({ name: 'n'.repeat(100), slug: '  trimmed  ' });
    expect(project.slug).toBe('trimmed');
  });
});

describe('GET /v1/projects', () => {
  it('lists active projects newest first; archived=true lists the archived ones', async () => {
    const a = await create({ name: 'A' });
    t.clock.advance(1000);
    const b = await create({ name: 'B' });
    t.clock.advance(1000);
    const c = await create({ name: 'C' });
    await call('POST', `/v1/projects/${b.id}:archive`);
    const active = await call('GET', '/v1/projects');
    expect(active.status).toBe(200);
    expect(((await active.json()) as ProjectJson[]).map((p) => p.id)).toEqual([c.id, a.id]);
    const explicit = await call('GET', '/v1/projects?archived=false');
    expect(((await explicit.json()) as ProjectJson[]).map((p) => p.id)).toEqual([c.id, a.id]);
    const archived = await call('GET', '/v1/projects?archived=true');
    expect(((await archived.json()) as ProjectJson[]).map((p) => [p.id, p.archived])).toEqual([[b.id, true]]);
  });

  it.each(['maybe', 'TRUE', '1', ''])('answers 400 for archived=%j', async (value) => {
    const problem = await assertProblem(
      await call('GET', `/v1/projects?archived=${value}`),
      400,
      'validation_failed',
    );
    expect(problem.errors).toEqual([{ path: 'archived', message: 'must be true or false' }]);
  });

  it("does not list another user's projects", async () => {
    await create({ name: 'Mine' });
    const bob = await t.signUpAndIn('bob@example.com');
    expect(await (await call('GET', '/v1/projects', undefined, bob.accessToken)).json()).toEqual([]);
  });
});

describe('one project', () => {
  it('reads a project', async () => {
    const project = await create({ name: 'Read me' });
    const res = await call('GET', `/v1/projects/${project.id}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(project);
  });

  it('accepts the id in upper case', async () => {
    const project = await create({ name: 'Upper' });
    expect((await call('GET', `/v1/projects/${project.id.toUpperCase()}`)).status).toBe(200);
  });

  it('answers 404 for an unknown id and 400 for an id that is not a UUID', async () => {
    await assertProblem(
      await call('GET', '/v1/projects/0190b000-0000-7000-8000-00000000dead'),
      404,
      'not_found',
    );
    const problem = await assertProblem(
      await call('GET', '/v1/projects/not-a-uuid'),
      400,
      'validation_failed',
    );
    expect(problem.errors).toEqual([{ path: 'project_id', message: 'must be a UUID' }]);
    await assertProblem(await call('POST', '/v1/projects/not-a-uuid:archive'), 400, 'validation_failed');
  });

  it('renames without changing the slug', async () => {
    const project = await create({ name: 'Old name' });
    t.clock.advance(5000);
    const res = await call('PATCH', `/v1/projects/${project.id}`, { name: '  New name ' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      ...project,
      name: 'New name',
      slug: 'old-name',
      updated_at: '2026-01-01T00:00:05.000Z',
    });
  });

  it('archives and restores through PATCH, renaming in the same call', async () => {
    const project = await create({ name: 'Toggle' });
    const archived = await (
      await call('PATCH', `/v1/projects/${project.id}`, { archived: true, name: 'Gone' })
    ).json();
    expect(archived).toMatchObject({ archived: true, name: 'Gone' });
    const restored = await call('PATCH', `/v1/projects/${project.id}`, { archived: false });
    expect(await restored.json()).toMatchObject({ archived: false, name: 'Gone' });
    expect((await t.projects.findAccess(project.id, alice.id))?.project?.archived).toBe(false);
  });

  it.each([
    ['an empty object', {}, ''],
    ['an unknown field', { slug: 'new-slug' }, 'slug'],
    ['archived as a string', { archived: 'true' }, 'archived'],
    ['an empty name', { name: ' ' }, 'name'],
  ])('answers 400 to PATCH with %s', async (_label, json, field) => {
    const project = await create({ name: 'Patch me' });
    const problem = await assertProblem(
      await call('PATCH', `/v1/projects/${project.id}`, json),
      400,
      'validation_failed',
    );
    expect(problem.errors?.map((e) => e.path)).toContain(field);
  });

  it('answers 400 to PATCH without a body', async () => {
    const project = await create({ name: 'No body' });
    const problem = await assertProblem(
      await call('PATCH', `/v1/projects/${project.id}`),
      400,
      'validation_failed',
    );
    expect(problem.errors).toEqual([{ path: '', message: 'a JSON body is required' }]);
  });

  it('archives idempotently with POST :archive, with or without an empty body', async () => {
    const project = await create({ name: 'Archive me' });
    t.clock.advance(1000);
    const first = await call('POST', `/v1/projects/${project.id}:archive`);
    expect(first.status).toBe(200);
    const firstBody = (await first.json()) as ProjectJson;
    expect(firstBody).toMatchObject({
      id: project.id,
      archived: true,
      updated_at: '2026-01-01T00:00:01.000Z',
    });
    t.clock.advance(1000);
    const again = await call('POST', `/v1/projects/${project.id}:archive`, {});
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual(firstBody);
  });

  it('deletes with 204 and no body; the project is gone', async () => {
    const project = await create({ name: 'Delete me' });
    const res = await call('DELETE', `/v1/projects/${project.id}`);
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    expect(await t.projects.findAccess(project.id, alice.id)).toBeNull();
    await assertProblem(await call('DELETE', `/v1/projects/${project.id}`), 404, 'not_found');
    await assertProblem(await call('GET', `/v1/projects/${project.id}`), 404, 'not_found');
  });

  it("answers 404 on every project route for another user's project and changes nothing", async () => {
    const project = await create({ name: 'Private' });
    const bob = await t.signUpAndIn('bob@example.com');
    const path = `/v1/projects/${project.id}`;
    await assertProblem(await call('GET', path, undefined, bob.accessToken), 404, 'not_found');
    await assertProblem(await call('PATCH', path, { name: 'Hacked' }, bob.accessToken), 404, 'not_found');
    await assertProblem(await call('PATCH', path, { archived: true }, bob.accessToken), 404, 'not_found');
    await assertProblem(await call('POST', `${path}:archive`, undefined, bob.accessToken), 404, 'not_found');
    await assertProblem(await call('DELETE', path, undefined, bob.accessToken), 404, 'not_found');
    expect((await t.projects.findAccess(project.id, alice.id))?.project).toMatchObject({
      name: 'Private',
      archived: false,
    });
  });

  it('requires a bearer token on every project route', async () => {
    const id = '0190b000-0000-7000-8000-000000000001';
    for (const [method, path] of [
      ['GET', '/v1/projects'],
      ['POST', '/v1/projects'],
      ['GET', `/v1/projects/${id}`],
      ['PATCH', `/v1/projects/${id}`],
      ['DELETE', `/v1/projects/${id}`],
      ['POST', `/v1/projects/${id}:archive`],
    ] as const) {
      await assertProblem(await t.request(path, { method }), 401, 'unauthorized');
    }
  });
});
