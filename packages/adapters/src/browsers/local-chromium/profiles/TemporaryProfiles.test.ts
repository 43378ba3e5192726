import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TEMP_PROFILE_PREFIX, TemporaryProfiles } from './TemporaryProfiles.ts';

describe('TemporaryProfiles', () => {
  const scratch: string[] = [];
  afterEach(async () => {
    for (const dir of scratch.splice(0)) await rm(dir, { recursive: true, force: true });
  });

  async function setUp() {
    const parent = await mkdtemp(join(tmpdir(), 'temporary-profiles-'));
    scratch.push(parent);
    return { parent, profiles: new TemporaryProfiles(parent) };
  }

  it('creates fresh profile folders under its parent and removes one with its contents', async () => {
    const { parent, profiles } = await setUp();
    const a = await profiles.create();
    const b = await profiles.create();
    expect(basename(a).startsWith(TEMP_PROFILE_PREFIX)).toBe(true);
    expect((await readdir(parent)).sort()).toEqual([basename(a), basename(b)].sort());
    await writeFile(join(a, 'Cookies'), 'x');
    await profiles.remove(a);
    expect(await readdir(parent)).toEqual([basename(b)]);
    expect(profiles.remaining).toEqual([b]);
  });

  it('removes every folder left, asynchronously or synchronously, and nothing else', async () => {
    const { parent, profiles } = await setUp();
    await writeFile(join(parent, 'not-a-profile'), 'keep');
    for (let i = 0; i < 3; i++) await writeFile(join(await profiles.create(), 'Preferences'), '{}');
    await profiles.removeAll();
    expect(await readdir(parent)).toEqual(['not-a-profile']);
    for (let i = 0; i < 2; i++) await profiles.create();
    profiles.removeAllSync();
    expect(await readdir(parent)).toEqual(['not-a-profile']);
    expect(profiles.remaining).toEqual([]);
  });
});
