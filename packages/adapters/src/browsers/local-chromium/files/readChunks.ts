import type { FileHandle } from 'node:fs/promises';

/** How much of a file one read takes. */
const CHUNK_BYTES = 64 * 1024;

/**
 * An open file's bytes from its start, chunk by chunk, read straight off the handle (which the
 * caller keeps and closes: no stream owns it, so none closes it early or waits for a close).
 */
export async function* readChunks(handle: FileHandle): AsyncGenerator<Buffer> {
  for (let position = 0; ; ) {
    const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, CHUNK_BYTES, position);
    if (bytesRead === 0) return;
    position += bytesRead;
    yield buffer.subarray(0, bytesRead);
  }
}
