import { execFileSync } from 'node:child_process';
import { lstat, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { copyContextProfile } from './copyContextProfile.ts';

describe('copyContextProfile', () => {
  const scratch: string[] = [];
  afterEach(async () => {
    for (const dir of scratch.splice(0)) await rm(dir, { recursive: true, force: true });
  });

  async function setUp() {
    const root = await mkdtemp(join(tmpdir(), 'copy-profile-'));
    scratch.push(root);
    const from = join(root, 'context');
    const to = join(root, 'copy');
    await mkdir(join(from, 'Default', 'Cache'), { recursive: true });
    await mkdir(to);
    await writeFile(join(from, 'Local State'), '{"a":1}', { mode: 0o600 });
    await writeFile(join(from, 'Default', 'Cookies'), 'cookie-db');
    await writeFile(join(from, 'Default', 'Cache', 'data_0'), 'cached');
    return { root, from, to };
  }

  it('copies plain files and folders, leaving out caches and Chromium’s Singleton links', async () => {
    const { from, to } = await setUp();
    await symlink('host-1234', join(from, 'SingletonLock'));
    await writeFile(join(from, 'SingletonCookie'), 'x');
    await copyContextProfile(from, to, null);
    expect((await readdir(to)).sort()).toEqual(['Default', 'Local State']);
    expect(await readdir(join(to, 'Default'))).toEqual(['Cookies']);
    expect(await readFile(join(to, 'Default', 'Cookies'), 'utf8')).toBe('cookie-db');
    expect((await stat(join(to, 'Local State'))).mode & 0o777).toBe(0o600);
  });

  it('never follows or copies a link, pipe or socket a browser may have planted', async () => {
    const { root, from, to } = await setUp();
    const outside = join(root, 'secret');
    await writeFile(outside, 'host secret');
    await symlink(outside, join(from, 'Default', 'Preferences'));
    await symlink(root, join(from, 'escape'));
    execFileSync('mkfifo', [join(from, 'Default', 'pipe')]);
    await copyContextProfile(from, to, null);
    expect((await readdir(to)).sort()).toEqual(['Default', 'Local State']);
    expect(await readdir(join(to, 'Default'))).toEqual(['Cookies']);
  });

  it('gives every copied entry to the owner, and nothing a link points to', async () => {
    const { root, from, to } = await setUp();
    const outside = join(root, 'secret');
    await writeFile(outside, 'host secret');
    await symlink(outside, join(from, 'Default', 'Preferences'));
    const owner =
      process.getuid?.() === 0
        ? { uid: 65534, gid: 65534 }
        : { uid: process.getuid!(), gid: process.getgid!() };
    await copyContextProfile(from, to, owner);
    for (const path of ['Local State', 'Default', join('Default', 'Cookies')])
      expect(await lstat(join(to, path)), path).toMatchObject(owner);
    expect((await stat(outside)).uid).toBe(process.getuid!());
  });

  it('copies nothing from a context never used (no folder yet)', async () => {
    const { root, to } = await setUp();
    await copyContextProfile(join(root, 'never-used'), to, null);
    expect(await readdir(to)).toEqual([]);
  });
});
