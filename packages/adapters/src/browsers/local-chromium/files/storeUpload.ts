import { constants } from 'node:fs';
import { type FileHandle, mkdir, open, unlink } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { DomainError, type UploadedSessionFile } from '@browserdeck/domain';
import { folderPath, openFolder } from './openFolder.ts';

/** Names tried for one upload before giving up (`name`, `name (2)`, … `name (1000)`). */
const MAX_NAME_TRIES = 1000;
/** Longest stored name in UTF-8 bytes: room for ` (1000)` within the file systems' 255. */
const MAX_NAME_BYTES = 240;

/**
 * Writes an uploaded file into the session's uploads folder `uploadsDir` (`<profile>/Uploads`, made on
 * first use, 0700, given to the browser's user `owner` like the rest of its profile), under the base
 * name `name`, or `name (2).ext`, `name (3).ext`… when the session already has one. The profile is
 * the browser's: the folder is opened without following a link (`openFolder`) and the file created
 * in it exclusively, never through a link, 0600 and `owner`'s. A write that fails (the session's
 * disk is full: `payload_too_large`; the client went away; past the upload limit) removes the partial
 * file. Answers its name, size and path: the path the browser sees (its profile is at the same path).
 */
export async function storeUpload(options: {
  uploadsDir: string;
  name: string;
  content: AsyncIterable<Uint8Array>;
  owner: { uid: number; gid: number } | null;
}): Promise<UploadedSessionFile> {
  const { uploadsDir, owner } = options;
  await mkdir(uploadsDir, { mode: 0o700 }).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw error;
  });
  const folder = await openFolder(uploadsDir);
  if (!folder) throw new Error(`The session's uploads folder ${uploadsDir} is not a folder.`);
  try {
    if (owner) await folder.chown(owner.uid, owner.gid);
    await folder.chmod(0o700);
    const { handle, name } = await createUnique(folderPath(folder), safeName(options.name));
    let size = 0;
    try {
      if (owner) await handle.chown(owner.uid, owner.gid);
      for await (const chunk of options.content) {
        await handle.write(chunk);
        size += chunk.byteLength;
      }
    } catch (error) {
      await handle.close().catch(() => {});
      await unlink(`${folderPath(folder)}/${name}`).catch(() => {});
      if ((error as NodeJS.ErrnoException).code === 'ENOSPC') {
        throw new DomainError(
          'payload_too_large',
          'The file does not fit in the session’s disk (LOCAL_SESSION_DISK_MB); nothing was kept.',
        );
      }
      throw error;
    }
    await handle.close();
    return { name, size, path: `${uploadsDir}/${name}` };
  } finally {
    await folder.close();
  }
}

/**
 * The base name, or `upload` when nothing usable is left (`.`, `..`, empty); a name too long for the
 * file system (`MAX_NAME_BYTES`) loses the end of its stem, keeping its extension.
 */
function safeName(name: string): string {
  const base = basename(name.replaceAll('\\', '/')).replaceAll('\0', '');
  if (base === '' || base === '.' || base === '..') return 'upload';
  if (Buffer.byteLength(base) <= MAX_NAME_BYTES) return base;
  const ext = extname(base).length <= 16 ? extname(base) : '';
  const stem = [...base.slice(0, base.length - ext.length)];
  while (stem.length > 1 && Buffer.byteLength(stem.join('') + ext) > MAX_NAME_BYTES) stem.pop();
  return stem.join('') + ext;
}

/** Creates the first free name of `name`, `name (2).ext`, … in `dir`, exclusively and never through a link. */
async function createUnique(dir: string, name: string): Promise<{ handle: FileHandle; name: string }> {
  const ext = extname(name);
  const stem = name.slice(0, name.length - ext.length);
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
  for (let n = 1; n <= MAX_NAME_TRIES; n++) {
    const candidate = n === 1 ? name : `${stem} (${n})${ext}`;
    try {
      return { handle: await open(`${dir}/${candidate}`, flags, 0o600), name: candidate };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  throw new DomainError(
    'validation_failed',
    `The session already has ${MAX_NAME_TRIES} files named ${name}.`,
  );
}
