import { chmod, mkdir, mkdtemp, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { securePrivateDir } from './securePrivateDir.ts';

const modeOf = async (path: string) => (await stat(path)).mode & 0o7777;

describe('securePrivateDir', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'browserdeck-private-'));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('creates a missing folder (and its parents) with mode 0700', async () => {
    const dir = join(root, 'nested', 'data');
    expect(await securePrivateDir(dir)).toEqual({ dir, created: true, tightened: [], refused: [] });
    expect(await modeOf(dir)).toBe(0o700);
    expect(await modeOf(join(root, 'nested'))).toBe(0o700);
  });

  it('with create: false, leaves a missing folder missing', async () => {
    const dir = join(root, 'data');
    expect(await securePrivateDir(dir, { create: false })).toMatchObject({ created: false, tightened: [] });
    await expect(stat(dir)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('narrows an existing 0755 folder to 0700 and its 0644 files to 0600, and reports each', async () => {
    const dir = join(root, 'data');
    await mkdir(dir);
    await chmod(dir, 0o755);
    for (const name of [
      'browserdeck.sqlite',
      'browserdeck.sqlite-wal',
      'browserdeck.sqlite-shm',
      'secret.key',
    ]) {
      await writeFile(join(dir, name), 'x', { mode: 0o644 });
      await chmod(join(dir, name), 0o644);
    }
    await writeFile(join(dir, 'jwt-ed25519.pem'), 'x', { mode: 0o600 });
    await writeFile(join(dir, 'tool'), 'x');
    await chmod(join(dir, 'tool'), 0o775);

    const report = await securePrivateDir(dir);

    expect(report.created).toBe(false);
    expect(report.refused).toEqual([]);
    expect(report.tightened).toEqual(
      expect.arrayContaining([
        { path: dir, from: '755' },
        { path: join(dir, 'secret.key'), from: '644' },
        { path: join(dir, 'browserdeck.sqlite-wal'), from: '644' },
        { path: join(dir, 'tool'), from: '775' },
      ]),
    );
    expect(report.tightened).toHaveLength(6);
    expect(await modeOf(dir)).toBe(0o700);
    for (const name of [
      'browserdeck.sqlite',
      'browserdeck.sqlite-wal',
      'browserdeck.sqlite-shm',
      'secret.key',
    ]) {
      expect(await modeOf(join(dir, name))).toBe(0o600);
    }
    expect(await modeOf(join(dir, 'jwt-ed25519.pem'))).toBe(0o600);
    expect(await modeOf(join(dir, 'tool'))).toBe(0o600);
    // Done once: a second start finds nothing to change.
    expect((await securePrivateDir(dir)).tightened).toEqual([]);
  });

  it('leaves subfolders, their contents and symbolic links alone', async () => {
    const dir = join(root, 'data');
    const outside = join(root, 'outside.txt');
    await mkdir(join(dir, 'contexts', 'ctx-1'), { recursive: true });
    await chmod(join(dir, 'contexts'), 0o755);
    await writeFile(join(dir, 'contexts', 'ctx-1', 'Cookies'), 'x');
    await chmod(join(dir, 'contexts', 'ctx-1', 'Cookies'), 0o644);
    await writeFile(outside, 'x');
    await chmod(outside, 0o644);
    await symlink(outside, join(dir, 'link'));
    await chmod(dir, 0o700);

    expect((await securePrivateDir(dir)).tightened).toEqual([]);
    expect(await modeOf(join(dir, 'contexts'))).toBe(0o755);
    expect(await modeOf(join(dir, 'contexts', 'ctx-1', 'Cookies'))).toBe(0o644);
    expect(await modeOf(outside)).toBe(0o644);
  });

  it('refuses a shared folder (sticky bit) instead of locking everyone else out', async () => {
    const dir = join(root, 'shared');
    await mkdir(dir);
    await chmod(dir, 0o1777);
    await expect(securePrivateDir(dir)).rejects.toThrow(/shared folder.*folder of its own/);
    expect(await modeOf(dir)).toBe(0o1777);
  });

  it('refuses a file where the folder should be', async () => {
    await writeFile(join(root, 'data'), 'x');
    await expect(securePrivateDir(join(root, 'data'))).rejects.toThrow(/is not a folder/);
  });
});
