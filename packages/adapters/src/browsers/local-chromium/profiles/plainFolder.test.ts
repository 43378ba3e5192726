import { mkdir, mkdtemp, readlink, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { plainFolder } from './plainFolder.ts';

describe('plainFolder', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'plain-folder-'));
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it('replaces a link with a real folder and leaves what it pointed at alone', async () => {
    const outside = join(root, 'outside');
    await mkdir(outside);
    const dir = join(root, 'Downloads');
    await symlink(outside, dir);
    await plainFolder(dir);
    expect((await stat(dir)).isDirectory()).toBe(true);
    await expect(readlink(dir)).rejects.toMatchObject({ code: 'EINVAL' });
    expect((await stat(outside)).isDirectory()).toBe(true);
  });

  it('replaces a file, makes a missing folder, and keeps an existing one with its files', async () => {
    const file = join(root, 'a');
    await writeFile(file, 'x');
    await plainFolder(file);
    expect((await stat(file)).isDirectory()).toBe(true);
    await plainFolder(join(root, 'b'));
    expect((await stat(join(root, 'b'))).isDirectory()).toBe(true);
    await writeFile(join(root, 'b', 'kept'), 'y');
    await plainFolder(join(root, 'b'));
    expect((await stat(join(root, 'b', 'kept'))).isFile()).toBe(true);
  });
});
