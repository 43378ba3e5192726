import { createHash } from 'node:crypto';
import { realpath } from 'node:fs/promises';

/**
 * The ids Chromium may give the unpacked extension in `dir`: from its manifest's `key` (a base64
 * public key) when it has one, else from its absolute path, as written and with links resolved
 * (Chromium resolves the path it sees; a confined browser sees the folder at the path as written).
 * An id is the first 128 bits of a SHA-256, written with the letters a to p.
 */
export async function unpackedExtensionIds(dir: string, manifestKey: unknown): Promise<string[]> {
  if (typeof manifestKey === 'string' && manifestKey.trim() !== '')
    return [idOf(Buffer.from(manifestKey.replace(/\s+/g, ''), 'base64'))];
  const real = await realpath(dir);
  return [...new Set([idOf(Buffer.from(dir)), idOf(Buffer.from(real))])];
}

function idOf(bytes: Uint8Array): string {
  const hex = createHash('sha256').update(bytes).digest('hex').slice(0, 32);
  return [...hex].map((digit) => String.fromCharCode(97 + Number.parseInt(digit, 16))).join('');
}
