import { mkdir, open } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import yauzl from 'yauzl';

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
  try {
    for await (const entry of file.eachEntry()) {
      const target = inside(root, entry.fileName);
      if (entry.fileName.endsWith('/')) {
        await mkdir(target, { recursive: true, mode: 0o700 });
        continue;
      }
      await mkdir(dirname(target), { recursive: true, mode: 0o700 });
      const handle = await open(target, 'wx', 0o600);
      try {
        for await (const chunk of await file.openReadStreamPromise(entry)) {
          inflated += (chunk as Buffer).byteLength;
          if (inflated > maxBytes) throw new Error(`the stored profile inflates past ${maxBytes} bytes`);
          const bytes = chunk as Buffer;
          for (let done = 0; done < bytes.byteLength; )
            done += (await handle.write(bytes, done)).bytesWritten;
        }
      } finally {
        await handle.close();
      }
    }
  } finally {
    file.close();
  }
}

function inside(root: string, path: string): string {
  const target = resolve(join(root, ...path.split('/')));
  if (path.includes('\\') || !target.startsWith(root + sep))
    throw new Error(`a stored profile's entry leaves its folder: ${JSON.stringify(path)}`);
  return target;
}
