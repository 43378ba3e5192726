import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ZipArchive } from 'archiver';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProfileTooLargeError, packProfile } from './packProfile.ts';
import { unpackProfile } from './unpackProfile.ts';

describe('packProfile and unpackProfile: a context profile stored as a zip', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'browserdeck-pack-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('round-trips what a copy keeps: no caches, downloads, lock links or links, files 0600', async () => {
    const profile = join(dir, 'profile');
    await mkdir(join(profile, 'Default', 'Cache'), { recursive: true });
    await mkdir(join(profile, 'Default', 'Local Storage'), { recursive: true });
    await mkdir(join(profile, 'Downloads'));
    await writeFile(join(profile, 'Local State'), '{"a":1}');
    await writeFile(join(profile, 'Default', 'Cookies'), Buffer.from([0, 1, 2, 255]));
    await writeFile(join(profile, 'Default', 'Local Storage', 'leveldb'), 'kept');
    await writeFile(join(profile, 'Default', 'Cache', 'data_0'), 'cache');
    await writeFile(join(profile, 'Downloads', 'report.csv'), 'a download');
    await writeFile(join(dir, 'outside'), 'secret');
    await symlink(join(dir, 'outside'), join(profile, 'Default', 'link'));
    await symlink('host-1234', join(profile, 'SingletonLock'));

    const zip = await packProfile(profile, 1024 * 1024);
    const out = join(dir, 'out');
    await unpackProfile(zip, out, 1024 * 1024);
    expect((await readdir(out, { recursive: true })).sort()).toEqual([
      'Default',
      'Default/Cookies',
      'Default/Local Storage',
      'Default/Local Storage/leveldb',
      'Local State',
    ]);
    expect(await readFile(join(out, 'Default', 'Cookies'))).toEqual(Buffer.from([0, 1, 2, 255]));
    expect(await readFile(join(out, 'Local State'), 'utf8')).toBe('{"a":1}');
    expect((await stat(join(out, 'Default', 'Cookies'))).mode & 0o777).toBe(0o600);
    expect((await stat(join(out, 'Default'))).mode & 0o777).toBe(0o700);
  });

  it('packs a missing folder as an empty profile', async () => {
    const out = join(dir, 'out');
    await unpackProfile(await packProfile(join(dir, 'never-used'), 1024), out, 1024);
    expect(await readdir(out)).toEqual([]);
  });

  it('refuses a profile whose zip is past the bound, and one that inflates past its own', async () => {
    const profile = join(dir, 'profile');
    await mkdir(profile);
    await writeFile(join(profile, 'big'), randomBytes(256 * 1024));
    await expect(packProfile(profile, 10 * 1024)).rejects.toBeInstanceOf(ProfileTooLargeError);
    const zip = await packProfile(profile, 1024 * 1024);
    await expect(unpackProfile(zip, join(dir, 'out'), 1024)).rejects.toThrow(/inflates past 1024 bytes/);
  });

  it('refuses an entry whose path would leave the folder', async () => {
    const archive = new ZipArchive({ zlib: { level: 1 } });
    const chunks: Buffer[] = [];
    archive.on('data', (chunk: Buffer) => chunks.push(chunk));
    archive.append('x', { name: 'ok/../../escaped' });
    await archive.finalize();
    const zip = Buffer.concat(chunks);
    await expect(unpackProfile(zip, join(dir, 'out'), 1024)).rejects.toThrow();
    expect(await readdir(dir)).not.toContain('escaped');
  });
});
