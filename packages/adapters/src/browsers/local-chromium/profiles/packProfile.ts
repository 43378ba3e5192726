import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ZipArchive } from 'archiver';
import { openDownload } from '../files/openDownload.ts';
import { keptInProfile } from './copyContextProfile.ts';

/**
 * How much larger than `CONTEXT_MAX_MB` a profile's files may be together: a profile that packs
 * within the bound also unpacks within it (`unpackProfile` allows as much).
 */
export const PROFILE_INFLATE_FACTOR = 8;

/** A profile larger than the bound (zipped, or its files together): it is not stored (`CONTEXT_MAX_MB`). */
export class ProfileTooLargeError extends Error {
  constructor(maxBytes: number, what = 'zipped') {
    super(`the profile is larger than ${maxBytes} bytes ${what} (CONTEXT_MAX_MB)`);
  }
}

/**
 * Names a zip would not give back as they are: archiver turns `\` into `/` and drops a leading
 * drive (`C:`), and an unzipper refuses what that makes. Chromium writes none; such a file is left out.
 */
const UNSTORABLE_NAME = /\\|^[A-Za-z]:/;

/**
 * The zip of a context profile folder, as stored for every instance to open: what a copy of the
 * profile keeps (`keptInProfile`: no caches, downloads, uploads or lock links), plain files and
 * folders only, each file opened without following a link. The zip is held in memory, so it is cut
 * off at `maxBytes` zipped and at `maxBytes × PROFILE_INFLATE_FACTOR` of files
 * (`ProfileTooLargeError`). A missing folder is an empty zip.
 */
export async function packProfile(dir: string, maxBytes: number): Promise<Uint8Array> {
  const archive = new ZipArchive({ zlib: { level: 6 } });
  const chunks: Buffer[] = [];
  let size = 0;
  const collected = (async () => {
    for await (const chunk of archive) {
      size += (chunk as Buffer).byteLength;
      if (size > maxBytes) throw new ProfileTooLargeError(maxBytes);
      chunks.push(chunk as Buffer);
    }
  })();
  const files = { bytes: 0, max: maxBytes * PROFILE_INFLATE_FACTOR };
  const written = (async () => {
    await addTree(archive, dir, '', files);
    await archive.finalize();
  })();
  try {
    // A zip past the bound fails the collector at once, and the archive is abandoned mid-way.
    await Promise.all([written, collected]);
  } catch (error) {
    archive.abort();
    written.catch(() => {});
    collected.catch(() => {});
    throw error;
  }
  return Buffer.concat(chunks, size);
}

async function addTree(
  archive: ZipArchive,
  dir: string,
  prefix: string,
  files: { bytes: number; readonly max: number },
): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT' && prefix === '') return [];
    throw error;
  });
  for (const entry of entries) {
    const name = `${prefix}${entry.name}`;
    if (UNSTORABLE_NAME.test(entry.name)) continue;
    if (entry.isDirectory() && keptInProfile(entry.name, true)) {
      archive.append('', { name: `${name}/` });
      await addTree(archive, join(dir, entry.name), `${name}/`, files);
    } else if (entry.isFile() && keptInProfile(entry.name, false)) {
      const handle = await openDownload(join(dir, entry.name));
      if (!handle) continue;
      // Read whole before the next file opens: one handle at a time, closed before going on.
      try {
        files.bytes += (await handle.stat()).size;
        if (files.bytes > files.max) throw new ProfileTooLargeError(files.max, 'in files');
        archive.append(await handle.readFile(), { name });
      } finally {
        await handle.close();
      }
    }
  }
}
