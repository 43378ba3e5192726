import { constants } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';

/**
 * Opens a download for reading without following a link (`O_NOFOLLOW`), and only when it is still a
 * plain file: the folder is the browser's, and the service (root, often) must not be led by a link
 * to read a file the browser's user cannot. Null when it is gone or is no longer a plain file.
 */
export async function openDownload(path: string): Promise<FileHandle | null> {
  let handle: FileHandle;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return null;
  }
  const stats = await handle.stat().catch(() => null);
  if (stats?.isFile()) return handle;
  await handle.close();
  return null;
}
