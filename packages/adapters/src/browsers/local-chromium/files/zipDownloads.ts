import { Readable } from 'node:stream';
import { ZipArchive } from 'archiver';
import { completedDownloads } from './completedDownloads.ts';
import { openDownload } from './openDownload.ts';
import { folderPath, openFolder } from './openFolder.ts';
import { readChunks } from './readChunks.ts';

/**
 * A zip of the completed downloads in `dir` (`completedDownloads`: plain files, no partial ones), flat
 * under their own names (safe ones only: none with `\`, `/` or a control character, which an
 * unzipper could take for a path out of its folder), streamed as it is written: no file is held in
 * memory or written anywhere else, and only one is open at a time. The folder is opened once without
 * following a link (`openFolder`), and every file in it likewise. A folder without downloads (or
 * none, or a link) gives an empty, valid zip; a file gone between the listing and its turn is an
 * empty entry. Stopping the iteration early (the client went away) aborts the archive and closes
 * what it had open.
 */
export async function* zipDownloads(dir: string): AsyncGenerator<Uint8Array> {
  const folder = await openFolder(dir);
  const archive = new ZipArchive({ zlib: { level: 6 } });
  try {
    const files = folder ? await completedDownloads(folderPath(folder)) : [];
    for (const file of files) {
      archive.append(Readable.from(fileChunks(file.path)), { name: file.name, date: file.modifiedAt });
    }
    // Errors surface through the stream read below; finalize's own promise would repeat them.
    archive.finalize().catch(() => {});
    for await (const chunk of archive) yield chunk as Buffer;
  } finally {
    if (!archive.readableEnded) archive.abort();
    await folder?.close();
  }
}

/** A file's bytes, opened only when the archive comes to it (nothing when it is gone by then). */
async function* fileChunks(path: string): AsyncGenerator<Buffer> {
  const handle = await openDownload(path);
  if (!handle) return;
  try {
    yield* readChunks(handle);
  } finally {
    await handle.close();
  }
}
