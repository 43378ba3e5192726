import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { completedDownloads } from './completedDownloads.ts';
import { openDownload } from './openDownload.ts';
import { folderPath, openFolder } from './openFolder.ts';
import { readChunks } from './readChunks.ts';

/**
 * Copies the completed downloads of the browser's folder `from` into the service's empty folder `to`
 * (files 0600, the service's), oldest first, while they fit `maxBytes` together; no link is
 * followed, `from` itself included. Answers how many were left out for the budget.
 */
export async function copyDownloads(from: string, to: string, maxBytes: number): Promise<number> {
  const folder = await openFolder(from);
  if (!folder) return 0;
  try {
    const files = await completedDownloads(folderPath(folder));
    files.sort((a, b) => a.modifiedAt.getTime() - b.modifiedAt.getTime());
    let budget = maxBytes;
    let skipped = 0;
    for (const file of files) {
      if (file.size > budget) {
        skipped += 1;
        continue;
      }
      const source = await openDownload(file.path);
      if (!source) continue;
      try {
        const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
        const target = await open(join(to, file.name), flags, 0o600);
        try {
          for await (const chunk of readChunks(source)) await target.write(chunk);
        } finally {
          await target.close();
        }
        budget -= file.size;
      } finally {
        await source.close();
      }
    }
    return skipped;
  } finally {
    await folder.close();
  }
}
