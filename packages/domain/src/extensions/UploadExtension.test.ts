import {
  aProject,
  FakeBrowserProvider,
  InMemoryExtensionRepository,
  InMemoryProjectRepository,
  ManualClock,
  SequentialIdGenerator,
} from '@browserdeck/testing';
import { describe, expect, it } from 'vitest';
import { asUser, type Caller } from '../access/Caller.ts';
import type { ExtensionArchiveInspector } from './ExtensionArchiveInspector.ts';
import { ExtensionInvalidError } from './ExtensionInvalidError.ts';
import { EXTENSION_ARCHIVE_MAX_BYTES, EXTENSIONS_PER_PROJECT_MAX } from './extensionRules.ts';
import { UploadExtension } from './UploadExtension.ts';

const OWNER = 'owner-1';
const ZIP = Uint8Array.from([0x50, 0x4b, 3, 4, 1, 2, 3]);

/** Takes any zip whose first byte is 0x50 ('P'), as "Stagehand Runtime"; refuses anything else. */
const inspector: ExtensionArchiveInspector = {
  inspect: async (archive) => {
    if (archive[0] !== 0x50) throw new ExtensionInvalidError('The extension is not a readable zip file.');
    return { name: 'Stagehand Runtime', version: '4.0.0', manifestVersion: 3, files: 12 };
  },
};

class StoringProvider extends FakeBrowserProvider {
  readonly uploaded: Array<{ fileName: string; size: number }> = [];
  readonly deleted: string[] = [];
  override readonly extensions = {
    upload: async (archive: Uint8Array, fileName: string) => {
      this.uploaded.push({ fileName, size: archive.byteLength });
      return `bb-ext-${this.uploaded.length}`;
    },
    delete: async (id: string) => {
      this.deleted.push(id);
    },
  };
}

async function setUp(options: { storing?: boolean; extensions?: InMemoryExtensionRepository } = {}) {
  const clock = new ManualClock('2026-03-01T12:00:00.000Z');
  const ids = new SequentialIdGenerator();
  const projects = new InMemoryProjectRepository();
  const extensions = options.extensions ?? new InMemoryExtensionRepository();
  const provider = options.storing ? new StoringProvider({ clock }) : new FakeBrowserProvider({ clock });
  const project = aProject({ id: ids.next(), ownerId: OWNER, now: clock.now() });
  await projects.add(project);
  const useCase = new UploadExtension({ projects, extensions, inspector, provider, ids, clock });
  const upload = (
    archive: Uint8Array = ZIP,
    fileName: string | null = 'stagehand.zip',
    caller: Caller = asUser(OWNER),
  ) => useCase.execute({ caller, projectId: project.id, fileName, archive });
  const stored = () => extensions.listInProject(project.id);
  return { clock, ids, projects, extensions, provider, project, useCase, upload, stored };
}

describe('UploadExtension', () => {
  it('stores the checked zip under the manifest’s name, with its file name and size', async () => {
    const { upload, extensions, project } = await setUp();
    const extension = await upload();
    expect(extension).toMatchObject({
      projectId: project.id,
      name: 'Stagehand Runtime',
      fileName: 'stagehand.zip',
      size: ZIP.byteLength,
      providerExtensionId: null,
    });
    expect(extension.createdAt.toISOString()).toBe('2026-03-01T12:00:00.000Z');
    expect({ ...(await extensions.findInProject(project.id, extension.id)) }).toEqual({ ...extension });
    expect(await extensions.readArchive(project.id, extension.id)).toEqual(ZIP);
  });

  it('keeps only the base name of the file, and names a nameless upload extension.zip', async () => {
    const { upload } = await setUp();
    expect((await upload(ZIP, 'C:\\Users\\me\\ext\u0007.zip')).fileName).toBe('ext.zip');
    expect((await upload(ZIP, '../../x/y.zip')).fileName).toBe('y.zip');
    expect((await upload(ZIP, null)).fileName).toBe('extension.zip');
    expect((await upload(ZIP, '  ')).fileName).toBe('extension.zip');
  });

  it('refuses a zip the inspector refuses with extension_invalid, storing nothing', async () => {
    const { upload, stored } = await setUp();
    await expect(upload(Uint8Array.from([1, 2, 3]))).rejects.toMatchObject({ code: 'extension_invalid' });
    expect(await stored()).toEqual([]);
  });

  it('refuses a zip past the size limit with payload_too_large, before inspecting it', async () => {
    const { upload, stored } = await setUp();
    const big = new Uint8Array(EXTENSION_ARCHIVE_MAX_BYTES + 1);
    await expect(upload(big)).rejects.toMatchObject({
      code: 'payload_too_large',
      maxBytes: EXTENSION_ARCHIVE_MAX_BYTES,
    });
    expect(await stored()).toEqual([]);
  });

  it('refuses an archived project with project_archived, another owner with not_found', async () => {
    const { upload, projects, project, clock, stored } = await setUp();
    await expect(upload(ZIP, 'a.zip', asUser('owner-2'))).rejects.toMatchObject({ code: 'not_found' });
    project.archive(clock.now());
    await projects.update(project);
    await expect(upload()).rejects.toMatchObject({ code: 'project_archived' });
    expect(await stored()).toEqual([]);
  });

  it('refuses one more than EXTENSIONS_PER_PROJECT_MAX with extension_limit_reached, before the provider gets a copy', async () => {
    const { upload, useCase, extensions, project, provider, projects, clock, ids } = await setUp({
      storing: true,
    });
    expect(EXTENSIONS_PER_PROJECT_MAX).toBe(100);
    for (let i = 0; i < EXTENSIONS_PER_PROJECT_MAX; i++) await upload();
    await expect(upload()).rejects.toMatchObject({
      code: 'extension_limit_reached',
      message: expect.stringContaining('100 extensions'),
    });
    expect(await extensions.countInProject(project.id)).toBe(EXTENSIONS_PER_PROJECT_MAX);
    expect((provider as StoringProvider).uploaded).toHaveLength(EXTENSIONS_PER_PROJECT_MAX);
    // Per project: another one of the owner still takes one; deleting one makes room again.
    const other = aProject({ id: ids.next(), ownerId: OWNER, now: clock.now() });
    await projects.add(other);
    await expect(
      useCase.execute({ caller: asUser(OWNER), projectId: other.id, archive: ZIP }),
    ).resolves.toMatchObject({ projectId: other.id });
    const [newest] = await extensions.listInProject(project.id);
    await extensions.delete(project.id, newest!.id);
    await expect(upload()).resolves.toMatchObject({ projectId: project.id });
  });

  it('takes a project API key of the project', async () => {
    const { upload, project } = await setUp();
    const key: Caller = {
      kind: 'apiKey',
      keyId: 'key-1',
      projectId: project.id,
      keyName: 'CI',
      role: 'developer',
    };
    await expect(upload(ZIP, 'a.zip', key)).resolves.toMatchObject({ name: 'Stagehand Runtime' });
  });

  it('uploads to a provider with its own store too, and keeps the provider’s id', async () => {
    const { upload, provider } = await setUp({ storing: true });
    const extension = await upload();
    expect(extension.providerExtensionId).toBe('bb-ext-1');
    expect((provider as StoringProvider).uploaded).toEqual([
      { fileName: 'stagehand.zip', size: ZIP.byteLength },
    ]);
  });

  it('deletes the provider’s copy again when storing fails', async () => {
    const failing = new InMemoryExtensionRepository();
    failing.add = async () => {
      throw new Error('disk full');
    };
    const { upload, provider } = await setUp({ storing: true, extensions: failing });
    await expect(upload()).rejects.toThrow('disk full');
    expect((provider as StoringProvider).deleted).toEqual(['bb-ext-1']);
  });
});
