import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** The suffix of a download Chromium is still writing (renamed to its own name once complete). */
export const PARTIAL_DOWNLOAD_SUFFIX = '.crdownload';

/**
 * A name that is not a download's: a path separator of any system or a control character (Chromium
 * never names a download so; the browser's user could), `.`/`..`, or none.
 */
const UNSAFE_NAME = /^\.{0,2}$|[\\/\p{Cc}]/u;

/** One completed download: its name in the folder, full path, size and last change. */
export interface CompletedDownload {
  readonly name: string;
  readonly path: string;
  readonly size: number;
  readonly modifiedAt: Date;
}

/**
 * The completed downloads in `dir`, by name: plain files only (a link, a folder or anything else a
 * browser might leave there is not a download, and a link is never followed), without Chromium's
 * partial `.crdownload` files, and only under safe names: a zip entry named `a\..\..\x` would be
 * `a/../../x` to an unzipper (zip slip), so such a file is left out. A missing folder has none.
 */
export async function completedDownloads(dir: string): Promise<CompletedDownload[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return [];
    throw error;
  });
  const files: CompletedDownload[] = [];
  for (const entry of entries) {
    if (!entry.isFile() || entry.name.endsWith(PARTIAL_DOWNLOAD_SUFFIX) || UNSAFE_NAME.test(entry.name))
      continue;
    const path = join(dir, entry.name);
    // lstat: the entry may have been swapped for a link since it was listed.
    const stats = await lstat(path).catch(() => null);
    if (!stats?.isFile()) continue;
    files.push({ name: entry.name, path, size: stats.size, modifiedAt: stats.mtime });
  }
  return files.sort((a, b) => a.name.localeCompare(b.name));
}
