import { readdir, rm } from 'node:fs/promises';
import { completedDownloads } from './completedDownloads.ts';
import { folderPath, openFolder } from './openFolder.ts';

/**
 * Removes from the folder `dir` everything that is not a completed download (`completedDownloads`):
 * partial `.crdownload` files, folders, links, FIFOs, sockets, files with unsafe or undecodable
 * names. What stays is then exactly what the retention budget counts and what the zip serves, so a
 * browser cannot keep more than `DOWNLOADS_MAX_MB` past its session by hiding it in a subfolder. No
 * link is followed: the folder is opened `O_NOFOLLOW` and a link in it is removed as a link.
 */
export async function pruneDownloads(dir: string): Promise<void> {
  const folder = await openFolder(dir);
  if (!folder) return;
  try {
    const root = folderPath(folder);
    const kept = new Set((await completedDownloads(root)).map((file) => file.name));
    // Names as bytes: one that is not valid UTF-8 would not survive a round trip through a string.
    for (const name of await readdir(root, { encoding: 'buffer' })) {
      if (kept.has(name.toString()) && Buffer.from(name.toString()).equals(name)) continue;
      await rm(Buffer.concat([Buffer.from(`${root}/`), name]), { recursive: true, force: true });
    }
  } finally {
    await folder.close();
  }
}
