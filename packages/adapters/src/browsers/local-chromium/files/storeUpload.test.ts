import { mkdir, mkdtemp, readdir, readFile, rm, stat, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { storeUpload } from './storeUpload.ts';

let profile: string;
beforeEach(async () => {
  profile = await mkdtemp(join(tmpdir(), 'upload-profile-'));
});
afterEach(() => rm(profile, { recursive: true, force: true }));

async function* text(...parts: string[]): AsyncGenerator<Uint8Array> {
  for (const part of parts) yield Buffer.from(part);
}

describe('storeUpload', () => {
  it('writes the file under its base name (0600, folder 0700), the next of that name with (2), (3)…', async () => {
    const uploadsDir = join(profile, 'Uploads');
    const first = await storeUpload({
      uploadsDir,
      name: 'report.pdf',
      content: text('%PDF', '-1.7'),
      owner: null,
    });
    expect(first).toEqual({ name: 'report.pdf', size: 8, path: join(uploadsDir, 'report.pdf') });
    expect(await readFile(first.path, 'utf8')).toBe('%PDF-1.7');
    expect((await stat(first.path)).mode & 0o777).toBe(0o600);
    expect((await stat(uploadsDir)).mode & 0o777).toBe(0o700);
    const second = await storeUpload({ uploadsDir, name: 'report.pdf', content: text('b'), owner: null });
    const third = await storeUpload({ uploadsDir, name: 'report.pdf', content: text('c'), owner: null });
    expect([second.name, third.name]).toEqual(['report (2).pdf', 'report (3).pdf']);
  });

  it('keeps only a base name, and shortens one too long for the file system, keeping its extension', async () => {
    const uploadsDir = join(profile, 'Uploads');
    expect(
      (await storeUpload({ uploadsDir, name: '../../etc/passwd', content: text('x'), owner: null })).name,
    ).toBe('passwd');
    expect((await storeUpload({ uploadsDir, name: '..', content: text('x'), owner: null })).name).toBe(
      'upload',
    );
    const long = await storeUpload({
      uploadsDir,
      name: `${'é'.repeat(200)}.txt`,
      content: text('x'),
      owner: null,
    });
    expect(Buffer.byteLength(long.name)).toBeLessThanOrEqual(240);
    expect(long.name.endsWith('.txt')).toBe(true);
    expect((await readdir(uploadsDir)).sort()).toEqual([long.name, 'passwd', 'upload'].sort());
  });

  it('removes the partial file when the upload fails, and passes the failure on', async () => {
    const uploadsDir = join(profile, 'Uploads');
    async function* failing(): AsyncGenerator<Uint8Array> {
      yield Buffer.from('half a file');
      throw new Error('the client went away');
    }
    await expect(storeUpload({ uploadsDir, name: 'a.txt', content: failing(), owner: null })).rejects.toThrow(
      /went away/,
    );
    expect(await readdir(uploadsDir)).toEqual([]);
  });

  it('never writes through a link where the uploads folder or the file would be', async () => {
    const elsewhere = join(profile, 'elsewhere');
    await mkdir(elsewhere);
    await symlink(elsewhere, join(profile, 'Uploads'));
    await expect(
      storeUpload({ uploadsDir: join(profile, 'Uploads'), name: 'a.txt', content: text('x'), owner: null }),
    ).rejects.toThrow(/not a folder/);
    expect(await readdir(elsewhere)).toEqual([]);

    const uploadsDir = join(profile, 'Uploads2');
    await mkdir(uploadsDir);
    await symlink(join(elsewhere, 'target.txt'), join(uploadsDir, 'b.txt'));
    const stored = await storeUpload({ uploadsDir, name: 'b.txt', content: text('y'), owner: null });
    expect(stored.name).toBe('b (2).txt');
    expect(await readdir(elsewhere)).toEqual([]);
  });
});
