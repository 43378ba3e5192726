import { mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { extensionZip, manifestJson, rawZip } from '@browserdeck/testing/adapters';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { unpackExtensionArchive } from './unpackExtensionArchive.ts';

const modeOf = async (path: string) => (await stat(path)).mode & 0o7777;

describe('unpackExtensionArchive', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'browserdeck-extension-'));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('writes every file under the folder, files 0644 and folders 0755', async () => {
    const zip = await extensionZip({
      'manifest.json': manifestJson(),
      'content.js': 'document.body.dataset.marked = "yes"',
      'lib/deep/util.js': 'export {}',
      'icon.png': Buffer.from([0, 1, 2, 255]),
    });
    const dir = join(root, 'ext');
    await unpackExtensionArchive(zip, dir);
    expect(await readFile(join(dir, 'content.js'), 'utf8')).toBe('document.body.dataset.marked = "yes"');
    expect([...(await readFile(join(dir, 'icon.png')))]).toEqual([0, 1, 2, 255]);
    expect(JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8'))).toMatchObject({ name: 'Marker' });
    expect(await modeOf(dir)).toBe(0o755);
    expect(await modeOf(join(dir, 'lib'))).toBe(0o755);
    expect(await modeOf(join(dir, 'lib', 'deep'))).toBe(0o755);
    expect(await modeOf(join(dir, 'lib', 'deep', 'util.js'))).toBe(0o644);
    expect(await modeOf(join(dir, 'manifest.json'))).toBe(0o644);
  });

  it('creates folders named by their own entries, even empty ones', async () => {
    const zip = rawZip([{ name: 'manifest.json', data: manifestJson() }, { name: 'empty/' }]);
    await unpackExtensionArchive(zip, join(root, 'ext'));
    expect(await readdir(join(root, 'ext', 'empty'))).toEqual([]);
    expect(await modeOf(join(root, 'ext', 'empty'))).toBe(0o755);
  });

  it('refuses a path that leaves the folder, and writes nothing outside it', async () => {
    const zip = rawZip([
      { name: 'manifest.json', data: manifestJson() },
      { name: '../escaped.js', data: 'x' },
    ]);
    await expect(unpackExtensionArchive(zip, join(root, 'ext'))).rejects.toMatchObject({
      code: 'extension_invalid',
    });
    expect(await readdir(root)).toEqual(['ext']);
    // The checks run on the central directory first: not even the manifest was written.
    expect(await readdir(join(root, 'ext'))).toEqual([]);
  });

  it('refuses a symlink entry', async () => {
    const zip = rawZip([
      { name: 'manifest.json', data: manifestJson() },
      { name: 'link', data: '/etc/passwd', mode: 0o120777 },
    ]);
    await expect(unpackExtensionArchive(zip, join(root, 'ext'))).rejects.toMatchObject({
      code: 'extension_invalid',
    });
  });

  it('does not write through a symlink already in the folder', async () => {
    const dir = join(root, 'ext');
    await mkdir(dir);
    const outside = join(root, 'outside.txt');
    await writeFile(outside, 'untouched');
    await symlink(outside, join(dir, 'manifest.json'));
    await mkdir(join(root, 'elsewhere'));
    await symlink(join(root, 'elsewhere'), join(dir, 'lib'));
    await expect(
      unpackExtensionArchive(await extensionZip({ 'manifest.json': manifestJson() }), dir),
    ).rejects.toMatchObject({
      code: 'EEXIST',
    });
    expect(await readFile(outside, 'utf8')).toBe('untouched');
    await expect(
      unpackExtensionArchive(await extensionZip({ 'manifest.json': '{}', 'lib/a.js': 'x' }), dir),
    ).rejects.toThrow();
    expect(await readdir(join(root, 'elsewhere'))).toEqual([]);
  });

  it('stops a file that inflates past what it declares, while inflating', async () => {
    const zip = rawZip([
      { name: 'manifest.json', data: manifestJson() },
      { name: 'bomb.bin', data: Buffer.alloc(4 * 1024 * 1024), deflate: true, declaredSize: 1024 },
    ]);
    await expect(unpackExtensionArchive(zip, join(root, 'ext'))).rejects.toMatchObject({
      code: 'extension_invalid',
    });
    expect((await stat(join(root, 'ext', 'bomb.bin'))).size).toBeLessThanOrEqual(1024);
  });
});
