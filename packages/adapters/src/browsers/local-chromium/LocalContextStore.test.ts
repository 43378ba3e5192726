import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeBrowserContextStoreContract } from '@browserdeck/domain/testing';
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
