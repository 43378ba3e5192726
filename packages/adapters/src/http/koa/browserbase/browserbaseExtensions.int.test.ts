import Browserbase, { BadRequestError, ConflictError, NotFoundError, toFile } from '@browserbasehq/sdk';
import { EXTENSIONS_PER_PROJECT_MAX, Extension } from '@browserdeck/domain';
import {
  createTestApp,
  extensionZip,
  manifestJson,
  rawZip,
  type TestApp,
  type TestUser,
} from '@browserdeck/testing/adapters';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

let t: TestApp;
let alice: TestUser;
let projectId: string;
let key: string;
let bb: Browserbase;
let zip: Buffer;

beforeEach(async () => {
  t = await createTestApp();
  alice = await t.signUpAndIn('alice@example.com');
  projectId = await t.createProject(alice, 'E');
  key = await t.createApiKey(alice, projectId);
  // Browserbase's SDK with its two changed lines: a Browserdeck key and this server.
  bb = new Browserbase({ apiKey: key, baseURL: t.baseUrl, maxRetries: 0 });
  zip = await extensionZip({ 'manifest.json': manifestJson({ name: 'Stagehand Runtime' }), 'sw.js': '' });
});
afterEach(() => t.close());

describe('Browserbase’s /v1/extensions, through its SDK', () => {
  it('uploads, reads and deletes an extension of the key’s project, in Browserbase’s shape', async () => {
    const extension = await bb.extensions.create({ file: await toFile(zip, 'stagehand-extension.zip') });
    expect(extension).toEqual({
      id: expect.stringMatching(/\S/),
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
      fileName: 'stagehand-extension.zip',
      projectId,
    });
    expect(await bb.extensions.retrieve(extension.id)).toEqual(extension);
    // The same row as §5's API shows.
    const native = await t.request(`/v1/projects/${projectId}/extensions/${extension.id}`, {
      token: alice.accessToken,
    });
    expect(await native.json()).toMatchObject({ id: extension.id, name: 'Stagehand Runtime' });
    // As Stagehand 4 deletes it on close: no Content-Type, no body.
    await bb.extensions.delete(extension.id, { headers: { 'Content-Type': null } });
    await expect(bb.extensions.retrieve(extension.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(bb.extensions.delete(extension.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('answers DELETE with 204', async () => {
    const extension = await bb.extensions.create({ file: await toFile(zip, 'e.zip') });
    const res = await t.request(`/v1/extensions/${extension.id}`, {
      method: 'DELETE',
      headers: { 'X-BB-API-Key': key },
    });
    expect(res.status).toBe(204);
  });

  it('refuses an unsafe zip with a 400 in Browserbase’s error shape', async () => {
    const evil = rawZip([
      { name: 'manifest.json', data: manifestJson() },
      { name: '/etc/cron.d/x', data: 'x' },
    ]);
    const refused = await bb.extensions
      .create({ file: await toFile(evil, 'evil.zip') })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(BadRequestError);
    expect((refused as BadRequestError).error).toMatchObject({
      statusCode: 400,
      code: 'extension_invalid',
      message: expect.stringMatching(/absolute path/),
    });
  });

  it('refuses the 101st extension of the key’s project with a 409 extension_limit_reached in Browserbase’s shape', async () => {
    for (let i = 1; i < EXTENSIONS_PER_PROJECT_MAX; i++) {
      const id = `0190b000-0000-7000-8000-${String(i).padStart(12, '0')}`;
      await t.extensions.add(
        Extension.create({
          ...{ id, projectId, name: `E${i}`, fileName: 'e.zip', size: zip.byteLength },
          providerExtensionId: null,
          now: t.clock.now(),
        }),
        zip,
      );
    }
    await bb.extensions.create({ file: await toFile(zip, 'hundredth.zip') });
    const refused = await bb.extensions
      .create({ file: await toFile(zip, 'one-more.zip') })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ConflictError);
    expect((refused as ConflictError).error).toMatchObject({
      statusCode: 409,
      error: 'Conflict',
      code: 'extension_limit_reached',
      message: expect.stringMatching(/100 extensions/),
    });
    expect(await t.extensions.countInProject(projectId)).toBe(EXTENSIONS_PER_PROJECT_MAX);
  });

  it('answers an unknown id, or another project’s extension, with 404', async () => {
    await expect(bb.extensions.retrieve('0190b000-0000-7000-8000-00000000dead')).rejects.toBeInstanceOf(
      NotFoundError,
    );
    await expect(bb.extensions.retrieve('ext_not_ours')).rejects.toBeInstanceOf(NotFoundError);
    const other = await t.request('/v1/projects', {
      method: 'POST',
      token: alice.accessToken,
      json: { name: 'O' },
    });
    const otherId = ((await other.json()) as { id: string }).id;
    const upload = new FormData();
    upload.append('file', new Blob([zip]), 'other.zip');
    const theirs = await t.request(`/v1/projects/${otherId}/extensions`, {
      method: 'POST',
      token: alice.accessToken,
      body: upload,
    });
    const { id } = (await theirs.json()) as { id: string };
    await expect(bb.extensions.retrieve(id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(bb.extensions.delete(id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('loads it into a session named by a top-level extensionId (Stagehand 4) or browserSettings.extensionId', async () => {
    const extension = await bb.extensions.create({ file: await toFile(zip, 'e.zip') });
    const topLevel = { projectId, extensionId: extension.id } as Parameters<typeof bb.sessions.create>[0];
    await bb.sessions.create(topLevel);
    await bb.sessions.create({ projectId, browserSettings: { extensionId: extension.id } });
    const creates = t.provider.calls.flatMap((c) => (c.op === 'create' ? [c.request] : []));
    expect(creates.map((r) => [r.extensionId, r.extension?.id, r.extension?.name])).toEqual([
      [extension.id, extension.id, 'Stagehand Runtime'],
      [extension.id, extension.id, 'Stagehand Runtime'],
    ]);
    const missing = await bb.sessions
      .create({ projectId, browserSettings: { extensionId: '0190b000-0000-7000-8000-00000000dead' } })
      .catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(NotFoundError);
    expect((missing as NotFoundError).error).toMatchObject({ code: 'extension_not_found' });
  });
});
