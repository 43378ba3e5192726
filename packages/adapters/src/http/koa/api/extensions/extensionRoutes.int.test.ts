import { EXTENSION_ARCHIVE_MAX_BYTES, EXTENSIONS_PER_PROJECT_MAX, Extension } from '@browserdeck/domain';
import {
  assertProblem,
  createTestApp,
  extensionZip,
  manifestJson,
  rawZip,
  type TestApp,
  type TestUser,
} from '@browserdeck/testing/adapters';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OpenApiDocument } from '../../kernel/openapi/OpenApiDocument.ts';
import { ExtensionSchema } from './extensionSchemas.ts';
import type { ExtensionJson } from './presentExtension.ts';

let t: TestApp;
let alice: TestUser;
let projectId: string;
let base: string;
let zip: Buffer;
beforeEach(async () => {
  t = await createTestApp();
  alice = await t.signUpAndIn('alice@example.com');
  projectId = await newProject('Extensions');
  base = `/v1/projects/${projectId}/extensions`;
  zip = await extensionZip({
    'manifest.json': manifestJson({ name: 'Marks pages' }),
    'mark.js': 'document.documentElement.dataset.marked = "yes";',
  });
});
afterEach(() => t.close());

const T0 = '2026-01-01T00:00:00.000Z';
const UNKNOWN = '0190b000-0000-7000-8000-00000000dead';

async function newProject(name: string, token = alice.accessToken): Promise<string> {
  const res = await t.request('/v1/projects', { method: 'POST', token, json: { name } });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

/** A multipart form with `bytes` as its file in `field`. */
function form(bytes: Uint8Array, fileName = 'marks.zip', field = 'file'): FormData {
  const body = new FormData();
  body.append(field, new Blob([bytes], { type: 'application/zip' }), fileName);
  return body;
}

const upload = (body: FormData | string, path = base, token = alice.accessToken) =>
  t.request(path, { method: 'POST', token, body });

async function uploaded(bytes: Uint8Array = zip, fileName?: string): Promise<ExtensionJson> {
  const res = await upload(form(bytes, fileName));
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as ExtensionJson;
}

describe('POST …/extensions', () => {
  it('stores a checked zip: 201 with the extension, the zip kept byte for byte', async () => {
    const extension = await uploaded();
    expect(ExtensionSchema.strict().parse(extension)).toEqual(extension);
    expect(extension).toEqual({
      id: expect.any(String),
      name: 'Marks pages',
      fileName: 'marks.zip',
      size: zip.byteLength,
      createdAt: T0,
    });
    const stored = await t.extensions.readArchive(projectId, extension.id);
    expect(Buffer.from(stored ?? []).equals(zip)).toBe(true);
  });

  it('refuses a zip Chromium would not load, or that escapes its folder, with 400 extension_invalid', async () => {
    const noManifest = await extensionZip({ 'ext/manifest.json': manifestJson() });
    const body = await assertProblem(await upload(form(noManifest)), 400, 'extension_invalid');
    expect(body.detail).toMatch(/no manifest\.json at its root/);
    const traversal = rawZip([
      { name: 'manifest.json', data: manifestJson() },
      { name: '../../evil.js', data: 'x' },
    ]);
    expect((await assertProblem(await upload(form(traversal)), 400, 'extension_invalid')).detail).toMatch(
      /\.\./,
    );
    const notZip = Buffer.from('definitely not a zip');
    await assertProblem(await upload(form(notZip)), 400, 'extension_invalid');
    expect(await t.extensions.listInProject(projectId)).toEqual([]);
  });

  it('refuses a zip past the size limit with 413 payload_too_large', async () => {
    const big = new Uint8Array(EXTENSION_ARCHIVE_MAX_BYTES + 1);
    const body = await assertProblem(await upload(form(big)), 413, 'payload_too_large');
    expect(body.detail).toContain(String(EXTENSION_ARCHIVE_MAX_BYTES));
    expect(await t.extensions.listInProject(projectId)).toEqual([]);
  });

  it('takes 100 extensions per project; the 101st is a 409 extension_limit_reached and stores nothing', async () => {
    expect(EXTENSIONS_PER_PROJECT_MAX).toBe(100);
    for (let i = 1; i < EXTENSIONS_PER_PROJECT_MAX; i++) {
      const id = `0190b000-0000-7000-8000-${String(i).padStart(12, '0')}`;
      const stored = Extension.create({
        ...{ id, projectId, name: `E${i}`, fileName: 'e.zip', size: zip.byteLength },
        providerExtensionId: null,
        now: t.clock.now(),
      });
      await t.extensions.add(stored, zip);
    }
    await uploaded();
    const body = await assertProblem(await upload(form(zip)), 409, 'extension_limit_reached');
    expect(body.detail).toMatch(/100 extensions/);
    expect(await t.extensions.countInProject(projectId)).toBe(EXTENSIONS_PER_PROJECT_MAX);
    // Another project of the same account still takes one.
    const other = await newProject('Other');
    expect((await upload(form(zip), `/v1/projects/${other}/extensions`)).status).toBe(201);
  });

  it('needs the zip in the multipart field "file"', async () => {
    await assertProblem(await upload(form(zip, 'marks.zip', 'archive')), 400, 'validation_failed');
    await assertProblem(
      await t.request(base, { method: 'POST', token: alice.accessToken, json: { file: 'x' } }),
      415,
      'unsupported_media_type',
    );
  });

  it('takes a project API key; another user’s project is a 404', async () => {
    const res = await t.request(`/v1/projects/${projectId}/api-keys`, {
      method: 'POST',
      token: alice.accessToken,
      json: { name: 'ci' },
    });
    const { key } = (await res.json()) as { key: string };
    expect((await upload(form(zip), base, key)).status).toBe(201);
    const bob = await t.signUpAndIn('bob@example.com');
    await assertProblem(await upload(form(zip), base, bob.accessToken), 404, 'not_found');
  });

  it('is project-wide (no provider segment: one under it is a 404), and a 409 in an archived project', async () => {
    await assertProblem(
      await upload(form(zip), `/v1/local/projects/${projectId}/extensions`),
      404,
      'not_found',
    );
    expect(
      (await t.request(`/v1/projects/${projectId}:archive`, { method: 'POST', token: alice.accessToken }))
        .status,
    ).toBe(200);
    await assertProblem(await upload(form(zip)), 409, 'project_archived');
  });
});

describe('GET and DELETE …/extensions', () => {
  it('lists newest first, reads one, deletes it (204), and then answers 404', async () => {
    const first = await uploaded();
    t.clock.advance(1000);
    const second = await uploaded(zip, 'second.zip');
    const list = await t.request(base, { token: alice.accessToken });
    expect(list.status).toBe(200);
    expect(((await list.json()) as ExtensionJson[]).map((e) => e.id)).toEqual([second.id, first.id]);
    const one = await t.request(`${base}/${first.id}`, { token: alice.accessToken });
    expect(await one.json()).toEqual(first);
    const deleted = await t.request(`${base}/${first.id}`, { method: 'DELETE', token: alice.accessToken });
    expect(deleted.status).toBe(204);
    await assertProblem(
      await t.request(`${base}/${first.id}`, { token: alice.accessToken }),
      404,
      'not_found',
    );
    await assertProblem(
      await t.request(`${base}/${first.id}`, { method: 'DELETE', token: alice.accessToken }),
      404,
      'not_found',
    );
    await assertProblem(
      await t.request(`${base}/${UNKNOWN}`, { token: alice.accessToken }),
      404,
      'not_found',
    );
    await assertProblem(
      await t.request(`${base}/not-a-uuid`, { token: alice.accessToken }),
      400,
      'validation_failed',
    );
  });

  it('keeps projects apart', async () => {
    const extension = await uploaded();
    const other = await newProject('Other');
    const otherBase = `/v1/projects/${other}/extensions`;
    expect(await (await t.request(otherBase, { token: alice.accessToken })).json()).toEqual([]);
    await assertProblem(
      await t.request(`${otherBase}/${extension.id}`, { token: alice.accessToken }),
      404,
      'not_found',
    );
  });
});

describe('a session with extensionId', () => {
  const sessions = () => `/v1/browserbase/projects/${projectId}/sessions`;

  it('hands the provider the stored extension and its zip', async () => {
    const extension = await uploaded();
    const res = await t.request(sessions(), {
      method: 'POST',
      token: alice.accessToken,
      json: { extensionId: extension.id },
    });
    expect(res.status, await res.clone().text()).toBe(201);
    expect(await res.json()).toMatchObject({ extensionId: extension.id });
    const create = t.provider.calls.find((c) => c.op === 'create');
    const request = create?.op === 'create' ? create.request : undefined;
    expect(request?.extension).toMatchObject({
      id: extension.id,
      name: 'Marks pages',
      providerExtensionId: null,
    });
    expect(Buffer.from(request?.extension?.archive ?? []).equals(zip)).toBe(true);
  });

  it('refuses an extensionId that names no extension of the project with 404 extension_not_found', async () => {
    const res = await t.request(sessions(), {
      method: 'POST',
      token: alice.accessToken,
      json: { extensionId: UNKNOWN },
    });
    await assertProblem(res, 404, 'extension_not_found');
    expect(t.provider.calls.filter((c) => c.op === 'create')).toEqual([]);
  });
});

describe('the OpenAPI document', () => {
  it('documents the four operations, the upload as a multipart file', async () => {
    const doc = (await (await t.request('/openapi.json')).json()) as OpenApiDocument;
    const prefix = '/v1/projects/{project_id}/extensions';
    expect(Object.keys(doc.paths[prefix] ?? {}).sort()).toEqual(['get', 'post']);
    expect(Object.keys(doc.paths[`${prefix}/{extension_id}`] ?? {}).sort()).toEqual(['delete', 'get']);
    expect(doc.paths[prefix]?.post?.requestBody).toMatchObject({
      content: { 'multipart/form-data': { schema: { required: ['file'] } } },
    });
    expect(Object.keys(doc.paths[prefix]?.post?.responses ?? {})).toEqual(
      expect.arrayContaining(['201', '400', '404', '409', '413', '415']),
    );
    expect(doc.paths[prefix]?.post?.responses?.['409']).toMatchObject({
      'x-error-codes': ['project_archived', 'extension_limit_reached'],
    });
  });
});
