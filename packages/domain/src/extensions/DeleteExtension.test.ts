import {
  anExtension,
  aProject,
  FakeBrowserProvider,
  InMemoryExtensionRepository,
  InMemoryProjectRepository,
  ManualClock,
} from '@browserdeck/testing';
import { describe, expect, it } from 'vitest';
import { asUser, type Caller } from '../access/Caller.ts';
import { DeleteExtension } from './DeleteExtension.ts';

const OWNER = 'owner-1';
const ZIP = Uint8Array.from([1, 2, 3]);

class StoringProvider extends FakeBrowserProvider {
  readonly deleted: string[] = [];
  failing = false;
  override readonly extensions = {
    upload: async () => 'unused',
    delete: async (id: string) => {
      if (this.failing) throw new Error('provider down');
      this.deleted.push(id);
    },
  };
}

async function setUp() {
  const clock = new ManualClock('2026-03-01T12:00:00.000Z');
  const projects = new InMemoryProjectRepository();
  const extensions = new InMemoryExtensionRepository();
  const provider = new StoringProvider({ clock });
  const project = aProject({ ownerId: OWNER });
  const other = aProject({ ownerId: OWNER });
  for (const p of [project, other]) await projects.add(p);
  const local = anExtension({ projectId: project.id });
  const remote = anExtension({ projectId: project.id, providerExtensionId: 'bb-ext-9' });
  const foreign = anExtension({ projectId: other.id });
  for (const e of [local, remote, foreign]) await extensions.add(e, ZIP);
  const useCase = new DeleteExtension({ projects, extensions, provider });
  const remove = (extensionId: string, caller: Caller = asUser(OWNER)) =>
    useCase.execute({ caller, projectId: project.id, extensionId });
  const has = async (id: string, projectId = project.id) =>
    (await extensions.findInProject(projectId, id)) !== null;
  return { clock, projects, project, other, provider, local, remote, foreign, remove, has };
}

describe('DeleteExtension', () => {
  it('deletes the extension and its zip; a second delete is not_found', async () => {
    const { remove, has, local, provider } = await setUp();
    await remove(local.id);
    expect(await has(local.id)).toBe(false);
    expect(provider.deleted).toEqual([]);
    await expect(remove(local.id)).rejects.toMatchObject({ code: 'not_found' });
  });

  it('deletes the provider’s copy too', async () => {
    const { remove, has, remote, provider } = await setUp();
    await remove(remote.id);
    expect(provider.deleted).toEqual(['bb-ext-9']);
    expect(await has(remote.id)).toBe(false);
  });

  it('keeps the extension when the provider fails, so a retry can finish', async () => {
    const { remove, has, remote, provider } = await setUp();
    provider.failing = true;
    await expect(remove(remote.id)).rejects.toThrow('provider down');
    expect(await has(remote.id)).toBe(true);
    provider.failing = false;
    await remove(remote.id);
    expect(await has(remote.id)).toBe(false);
  });

  it('answers not_found for another project’s extension and another owner, deleting nothing', async () => {
    const { remove, has, foreign, local, other } = await setUp();
    await expect(remove(foreign.id)).rejects.toMatchObject({ code: 'not_found' });
    await expect(remove(local.id, asUser('owner-2'))).rejects.toMatchObject({ code: 'not_found' });
    expect(await has(foreign.id, other.id)).toBe(true);
    expect(await has(local.id)).toBe(true);
  });

  it('deletes in an archived project, and for a project API key of the project', async () => {
    const { remove, has, local, remote, project, projects, clock } = await setUp();
    project.archive(clock.now());
    await projects.update(project);
    await remove(local.id);
    const key: Caller = {
      kind: 'apiKey',
      keyId: 'k',
      projectId: project.id,
      keyName: 'CI',
      role: 'developer',
    };
    await remove(remote.id, key);
    expect([await has(local.id), await has(remote.id)]).toEqual([false, false]);
  });
});
