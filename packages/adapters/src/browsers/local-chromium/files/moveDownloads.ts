import { lstat, mkdir, rename, rm } from 'node:fs/promises';
import { copyDownloads } from './copyDownloads.ts';
import { pruneDownloads } from './pruneDownloads.ts';

/**
 * Moves an ended session's Downloads folder `downloadsDir` to the service's `folder` (which must
 * not exist): renamed on the same file system, then pruned to its completed downloads; from another
 * file system (a temporary or size-limited profile) its completed downloads are copied while they
 * fit `maxBytes`. No Downloads folder at all gives an empty `folder`: the session's zip is then an
 * empty one for the retention period, not a 404. Answers how many files were left out for the budget.
 */
export async function moveDownloads(downloadsDir: string, folder: string, maxBytes: number): Promise<number> {
  let code: string | undefined;
  try {
    await rename(downloadsDir, folder);
  } catch (error) {
    code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EXDEV' && code !== 'ENOENT') throw error;
  }
  if (code === undefined) {
    await settleMoved(folder);
    return 0;
  }
  await mkdir(folder, { mode: 0o700 });
  return code === 'EXDEV' ? copyDownloads(downloadsDir, folder, maxBytes) : 0;
}

/**
 * Keeps of a folder renamed here only what the budgets count and the zip serves (`pruneDownloads`):
 * its partial files, folders, links, FIFOs… would otherwise outlive the session uncounted.
 */
async function settleMoved(folder: string): Promise<void> {
  // The browser's user may have left a link where its Downloads folder was: nothing is kept then.
  if (!(await lstat(folder)).isDirectory()) {
    await rm(folder, { force: true });
    await mkdir(folder, { mode: 0o700 });
    return;
  }
  try {
    await pruneDownloads(folder);
  } catch (error) {
    // What could not be pruned would be kept uncounted: nothing is kept instead.
    await rm(folder, { recursive: true, force: true });
    throw error;
  }
}
