import { constants } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';

/**
 * A folder the browser's user controls, opened without following a link (`O_NOFOLLOW`): the service
 * (root, often) then reads and writes in it through `folderPath(handle)`, which names the folder it
 * opened however the browser renames or relinks things afterwards (Linux's `/proc/self/fd`, as
 * `openat` would). Null when it is missing or is not a folder (a link to one included).
 */
export async function openFolder(path: string): Promise<FileHandle | null> {
  try {
    return await open(path, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
  } catch {
    return null;
  }
}

/** A path that names the folder `handle` holds open, for the names below it. */
export function folderPath(handle: FileHandle): string {
  return `/proc/self/fd/${handle.fd}`;
}
