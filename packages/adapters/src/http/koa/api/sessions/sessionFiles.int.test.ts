import { GetSessionDownloads, UPLOADS_PER_SESSION_MAX, UploadSessionFile } from '@browserdeck/domain';
import { providerWithoutFiles } from '@browserdeck/testing';
import {
  assertProblem,
  createTestApp,
  type TestApp,
  type TestAppOptions,
  type TestUser,
} from '@browserdeck/testing/adapters';
import { afterEach, describe, expect, it } from 'vitest';
import type { OpenApiDocument } from '../../kernel/openapi/OpenApiDocument.ts';
import type { SessionJson } from './presentSession.ts';

let t: TestApp;
let alice: TestUser;
let projectId: string;
let base: string;

async function start(options: TestAppOptions = {}): Promise<void> {
  t = await createTestApp(options);
  alice = await t.signUpAndIn('alice@example.com');
  projectId = await newProject(alice);
  base = `/v1/browserbase/projects/${projectId}/sessions`;
}
afterEach(() => t.close());

async function newProject(user: TestUser): Promise<string> {
  const res = await t.request('/v1/projects', {
    method: 'POST',
    token: user.accessToken,
    json: { name: 'Files' },
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

async function newSession(token = alice.accessToken, path = base): Promise<SessionJson> {
  const res = await t.request(path, { method: 'POST', token, json: {} });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as SessionJson;
}

/** A multipart form with `content` as the file `name` in `field`. */
function form(content: string | Uint8Array, name = 'note.txt', field = 'file'): FormData {
  const body = new FormData();
  body.append('purpose', 'a field before the file, which is read past');
  body.append(field, new Blob([content]), name);
  return body;
}

const upload = (
  sessionId: string,
  body: RequestInit['body'],
  token = alice.accessToken,
  headers?: Record<string, string>,
) =>
  t.request(`${base}/${sessionId}/uploads`, { method: 'POST', token, body, ...(headers ? { headers } : {}) });

describe('GET …/sessions/{session_id}/downloads', () => {
  it('streams the provider’s zip as an attachment named after the session', async () => {
    await start();
    const session = await newSession();
    const zip = Buffer.from(`PK\u0003\u0004${'z'.repeat(70_000)}`);
    t.provider.setDownloads(session.providerSessionId, zip);
    const res = await t.request(`${base}/${session.id}/downloads`, { token: alice.accessToken });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${session.id}-downloads.zip"`);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(Buffer.from(await res.arrayBuffer()).equals(zip)).toBe(true);
  });

  it('is 404 past retention, for another user’s session, and for a session of another project of a key', async () => {
    await start();
    const session = await newSession();
    const bob = await t.signUpAndIn('bob@example.com');
    await assertProblem(
      await t.request(`${base}/${session.id}/downloads`, { token: bob.accessToken }),
      404,
      'not_found',
    );
    const other = await newProject(alice);
    const key = await t.createApiKey(alice, other, 'files');
    await assertProblem(
      await t.request(`${base}/${session.id}/downloads`, { headers: { Authorization: `Bearer ${key}` } }),
      403,
      'forbidden_for_api_key',
    );
    t.provider.forget(session.providerSessionId);
    const gone = await assertProblem(
      await t.request(`${base}/${session.id}/downloads`, { token: alice.accessToken }),
      404,
      'not_found',
    );
    expect(gone.detail).toMatch(/no longer kept/);
  });

  it('is 501 not_implemented, for downloads and uploads, at a provider without them', async () => {
    let downloads: GetSessionDownloads | undefined;
    let uploads: UploadSessionFile | undefined;
    await start({
      overrides: {
        useCases: {
          sessions: {
            downloads: { execute: (input) => downloads!.execute(input) },
            upload: { execute: (input) => uploads!.execute(input) },
          },
        },
      },
    });
    const ports = { projects: t.projects, sessions: t.sessions, provider: providerWithoutFiles(t.provider) };
    downloads = new GetSessionDownloads(ports);
    uploads = new UploadSessionFile(ports);
    const session = await newSession();
    await assertProblem(
      await t.request(`${base}/${session.id}/downloads`, { token: alice.accessToken }),
      501,
      'not_implemented',
    );
    await assertProblem(await upload(session.id, form('x')), 501, 'not_implemented');
  });
});

describe('POST …/sessions/{session_id}/uploads', () => {
  it('stores one multipart file for the session and answers 201 { name, size, path }', async () => {
    await start();
    const session = await newSession();
    const res = await upload(session.id, form('hello, page', 'C:\\Users\\me\\note.txt'));
    expect(res.status, await res.clone().text()).toBe(201);
    expect(await res.json()).toEqual({
      name: 'note.txt',
      size: 11,
      path: `/fake/uploads/${session.providerSessionId}/note.txt`,
    });
    const stored = t.provider.uploads.get(session.providerSessionId) ?? [];
    expect(stored.map((f) => [f.name, Buffer.from(f.bytes).toString()])).toEqual([
      ['note.txt', 'hello, page'],
    ]);
  });

  it('takes a project API key on its own project, as the other session routes', async () => {
    await start();
    const session = await newSession();
    const key = await t.createApiKey(alice, projectId, 'files');
    const res = await upload(session.id, form('by key'), undefined as unknown as string, {
      Authorization: `Bearer ${key}`,
    });
    expect(res.status, await res.clone().text()).toBe(201);
  });

  it('refuses a body that is not multipart (415), a form without the file field (400 naming it), a nameless file', async () => {
    await start();
    const session = await newSession();
    await assertProblem(
      await t.request(`${base}/${session.id}/uploads`, {
        method: 'POST',
        token: alice.accessToken,
        json: { file: 'aGVsbG8=' },
      }),
      415,
      'unsupported_media_type',
    );
    const missing = await assertProblem(
      await upload(session.id, form('x', 'a.txt', 'document')),
      400,
      'validation_failed',
    );
    expect(missing.errors).toEqual([{ path: 'file', message: expect.stringMatching(/required/) }]);
    const broken = await assertProblem(
      await upload(session.id, '--nope\r\nContent-Disposition: form-data; name="file"', alice.accessToken, {
        'Content-Type': 'multipart/form-data; boundary=nope',
      }),
      400,
      'validation_failed',
    );
    expect(broken.errors?.[0]?.path).toBe('file');
    await assertProblem(await upload(session.id, form('x', '')), 400, 'validation_failed');
    expect(t.provider.uploads.get(session.providerSessionId)).toBeUndefined();
  });

  it('answers 413 payload_too_large past the limit, streamed or declared, and keeps nothing', async () => {
    await start({ uploadMaxBytes: 1024 });
    const session = await newSession();
    expect((await upload(session.id, form(new Uint8Array(1024)))).status).toBe(201);
    const streamed = await assertProblem(
      await upload(session.id, form(new Uint8Array(1025))),
      413,
      'payload_too_large',
    );
    expect(streamed.detail).toMatch(/1024 bytes/);
    await assertProblem(await upload(session.id, form(new Uint8Array(300_000))), 413, 'payload_too_large');
    expect(t.provider.uploads.get(session.providerSessionId)?.map((f) => f.bytes.length)).toEqual([1024]);
    // The connection still serves the next request.
    expect((await upload(session.id, form('small'))).status).toBe(201);
  });

  it('answers 404 for an unknown session before its large body is read, 409 session_ended once it ended', async () => {
    await start();
    const session = await newSession();
    await assertProblem(
      await upload('0190b000-0000-7000-8000-00000000dead', form(new Uint8Array(2 * 1024 * 1024))),
      404,
      'not_found',
    );
    const released = await t.request(`${base}/${session.id}:release`, {
      method: 'POST',
      token: alice.accessToken,
    });
    expect(released.status).toBe(200);
    await assertProblem(await upload(session.id, form('late')), 409, 'session_ended');
  });

  it('takes 100 files per session; the 101st is a 409 upload_limit_reached and reaches no provider', async () => {
    await start();
    const session = await newSession();
    expect(UPLOADS_PER_SESSION_MAX).toBe(100);
    for (let i = 0; i < UPLOADS_PER_SESSION_MAX; i++) {
      const res = await upload(session.id, form(`file ${i}`, `f${i}.txt`));
      expect(res.status, await res.clone().text()).toBe(201);
    }
    const body = await assertProblem(
      await upload(session.id, form('one more', 'more.txt')),
      409,
      'upload_limit_reached',
    );
    expect(body.detail).toMatch(/100 files/);
    expect(t.provider.uploads.get(session.providerSessionId)).toHaveLength(UPLOADS_PER_SESSION_MAX);
    // Per session: a new one of the project takes files again.
    const next = await newSession();
    expect((await upload(next.id, form('fresh'))).status).toBe(201);
  });

  it('is documented: a multipart body with a binary file field, its 201 and its problems', async () => {
    await start({ uploadMaxBytes: 1024 });
    const document = (await (await t.request('/openapi.json')).json()) as OpenApiDocument;
    const path = '/v1/{provider}/projects/{project_id}/sessions/{session_id}';
    const post = (document.paths[`${path}/uploads`] as unknown as Record<string, Record<string, unknown>>)
      .post!;
    expect(post.requestBody).toEqual({
      required: true,
      content: {
        'multipart/form-data': {
          schema: {
            type: 'object',
            required: ['file'],
            properties: {
              file: {
                type: 'string',
                contentMediaType: 'application/octet-stream',
                description: 'The file. At most 1024 bytes.',
              },
            },
          },
        },
      },
    });
    expect(Object.keys(post.responses as object)).toEqual(
      expect.arrayContaining(['201', '400', '404', '409', '413', '415']),
    );
    expect((post.responses as Record<string, Record<string, unknown>>)['409']?.['x-error-codes']).toEqual([
      'project_archived',
      'session_ended',
      'upload_limit_reached',
    ]);
    const get = (document.paths[`${path}/downloads`] as unknown as Record<string, Record<string, unknown>>)
      .get!;
    expect((get.responses as Record<string, { content?: object }>)['200']?.content).toEqual({
      'application/zip': { schema: {} },
    });
  });
});
