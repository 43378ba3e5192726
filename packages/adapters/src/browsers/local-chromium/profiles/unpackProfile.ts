import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import yauzl from 'yauzl';

/** Files written at once while unpacking. */
const PARALLEL_WRITES = 8;

/**
 * Unpacks a stored profile zip (`packProfile`) into the empty folder `dir`: folders 0700, files 0600,
 * the service's own (a copy for a browser is made from here and given to its user). The zip is our
 * own, yet it is read defensively: an entry whose path would leave `dir` fails the unpack, and the
 * inflated bytes are bounded by `maxBytes`.
 */
export async function unpackProfile(zip: Uint8Array, dir: string, maxBytes: number): Promise<void> {
  const root = resolve(dir);
  await mkdir(root, { recursive: true, mode: 0o700 });
  const file = await yauzl.fromBufferPromise(Buffer.from(zip.buffer, zip.byteOffset, zip.byteLength), {
    lazyEntries: true,
    autoClose: false,
    strictFileNames: true,
    validateEntrySizes: true,
  });
  let inflated = 0;
  // Each folder made once: a `mkdir -p` per file would look at every parent again.
  const made = new Set<string>([root]);
  const folder = async (path: string) => {
    if (made.has(path)) return;
    await mkdir(path, { recursive: true, mode: 0o700 });
    made.add(path);
  };
  // Entries are inflated one by one, and written a few at a time: a profile is many small files,
  // and each write is a few system calls that the file system's threads can do side by side.
  const writing = new Set<Promise<void>>();
  try {
    for await (const entry of file.eachEntry()) {
      const target = inside(root, entry.fileName);
      if (entry.fileName.endsWith('/')) {
        await folder(target);
        continue;
      }
      await folder(dirname(target));
      const chunks: Buffer[] = [];
      for await (const chunk of await file.openReadStreamPromise(entry)) {
        inflated += (chunk as Buffer).byteLength;
        if (inflated > maxBytes) throw new Error(`the stored profile inflates past ${maxBytes} bytes`);
        chunks.push(chunk as Buffer);
      }
      const write: Promise<void> = writeFile(target, Buffer.concat(chunks), {
        flag: 'wx',
        mode: 0o600,
      }).finally(() => writing.delete(write));
      writing.add(write);
      if (writing.size >= PARALLEL_WRITES) await Promise.race(writing);
    }
    await Promise.all(writing);
  } finally {
    await Promise.allSettled(writing);
    file.close();
  }
}

function inside(root: string, path: string): string {
  const target = resolve(join(root, ...path.split('/')));
  if (path.includes('\\') || !target.startsWith(root + sep))
    throw new Error(`a stored profile's entry leaves its folder: ${JSON.stringify(path)}`);
  return target;
}
