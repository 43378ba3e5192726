import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeBrowserContextStoreContract } from '@browserdeck/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { ContextLocks, contextKey } from './ContextLocks.ts';
import { LocalContextStore } from './LocalContextStore.ts';

const scratch: string[] = [];
afterAll(async () => {
  for (const dir of scratch) await rm(dir, { recursive: true, force: true });
});

async function givenStore() {
  const dataDir = await mkdtemp(join(tmpdir(), 'local-contexts-'));
  scratch.push(dataDir);
  const locks = new ContextLocks();
  return { dataDir, locks, contexts: new LocalContextStore({ dataDir, locks }) };
}

describeBrowserContextStoreContract('local profile folders', {
  create: async () => {
    const { locks, contexts } = await givenStore();
    return {
      contexts,
      occupy: async (projectId, contextId) => {
        const key = contextKey(projectId, contextId);
        expect(locks.takeExclusive(key)).toBe(true);
        return async () => locks.releaseExclusive(key);
      },
    };
  },
});

describe('LocalContextStore', () => {
  it('makes a private folder per context under <dataDir>/contexts/<projectId>, removed on delete', async () => {
    const { dataDir, contexts } = await givenStore();
    const context = await contexts.create('project-1');
    expect(context.id).toMatch(/^[0-9a-f-]{36}$/);
    const dir = join(dataDir, 'contexts', 'project-1', context.id);
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    expect(await contexts.delete('project-1', context.id)).toBe(true);
    await expect(stat(dir)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('refuses a delete while a profile copy is being made, not after', async () => {
    const { locks, contexts } = await givenStore();
    const context = await contexts.create('project-1');
    const key = contextKey('project-1', context.id);
    expect(locks.takeForCopy(key)).toBe(true);
    await expect(contexts.delete('project-1', context.id)).rejects.toMatchObject({ code: 'context_in_use' });
    locks.releaseCopy(key);
    expect(await contexts.delete('project-1', context.id)).toBe(true);
  });
});

describe('LocalContextStore limits', () => {
  it('refuses a context past maxPerProject with context_limit_reached, per project, and makes none', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'local-contexts-'));
    scratch.push(dataDir);
    const contexts = new LocalContextStore({ dataDir, locks: new ContextLocks(), maxPerProject: 2 });
    const first = await contexts.create('project-1');
    await contexts.create('project-1');
    await expect(contexts.create('project-1')).rejects.toMatchObject({ code: 'context_limit_reached' });
    expect(await readdir(join(dataDir, 'contexts', 'project-1'))).toHaveLength(2);
    await expect(contexts.create('project-2')).resolves.toMatchObject({ projectId: 'project-2' });
    await contexts.delete('project-1', first.id);
    await expect(contexts.create('project-1')).resolves.toMatchObject({ projectId: 'project-1' });
  });
});
