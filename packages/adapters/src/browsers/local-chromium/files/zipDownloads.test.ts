import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { zipDownloads } from './zipDownloads.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'zip-downloads-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

async function entries(archive: AsyncIterable<Uint8Array>): Promise<Record<string, string>> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of archive) chunks.push(chunk);
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(Buffer.concat(chunks), { lazyEntries: true }, (error, file) =>
      error || !file ? reject(error) : resolve(file),
    ),
  );
  const out: Record<string, string> = {};
  await new Promise<void>((resolve, reject) => {
    zip.on('end', resolve);
    zip.on('error', reject);
    zip.on('entry', (entry: yauzl.Entry) =>
      zip.openReadStream(entry, (error, stream) => {
        if (error || !stream) return reject(error);
        const parts: Buffer[] = [];
        stream.on('data', (part: Buffer) => parts.push(part));
        stream.on('end', () => {
          out[entry.fileName] = Buffer.concat(parts).toString('utf8');
          zip.readEntry();
        });
      }),
    );
    zip.readEntry();
  });
  return out;
}

describe('zipDownloads', () => {
  it('zips the completed downloads flat, leaving out partial files, folders and links', async () => {
    await writeFile(join(dir, 'report.pdf'), '%PDF');
    await writeFile(join(dir, 'big file (1).txt'), 'x'.repeat(200_000));
    await writeFile(join(dir, 'Unconfirmed 123.crdownload'), 'partial');
    await symlink('/etc/passwd', join(dir, 'passwd'));
    expect(await entries(zipDownloads(dir))).toEqual({
      'big file (1).txt': 'x'.repeat(200_000),
      'report.pdf': '%PDF',
    });
  });

  it('leaves out files whose names an unzipper could take for a path (zip slip)', async () => {
    await writeFile(join(dir, 'ok.txt'), 'ok');
    // The folder is the browser's: its user can name a file so. Archiver would write `a/../../x`.
    await writeFile(join(dir, 'a\\..\\..\\x'), 'slip');
    await writeFile(join(dir, '..\\evil'), 'slip');
    await writeFile(join(dir, 'line\nbreak'), 'control');
    await writeFile(join(dir, 'del\u007f'), 'control');
    expect(await entries(zipDownloads(dir))).toEqual({ 'ok.txt': 'ok' });
  });

  it('is an empty zip for an empty folder, a missing one, or a link to one', async () => {
    expect(await entries(zipDownloads(dir))).toEqual({});
    expect(await entries(zipDownloads(join(dir, 'missing')))).toEqual({});
    await writeFile(join(dir, 'secret'), 'no');
    await symlink(dir, join(dir, 'link'));
    expect(await entries(zipDownloads(join(dir, 'link')))).toEqual({});
  });
});
