import { crc32, deflateRawSync } from 'node:zlib';
import { ZipArchive } from 'archiver';

/** A minimal valid Manifest V3 extension's manifest, with `overrides` merged in. */
export function manifestJson(overrides: Record<string, unknown> = {}): string {
  return JSON.stringify({ manifest_version: 3, name: 'Marker', version: '1.0.0', ...overrides });
}

/** A well-formed extension zip built with archiver: `files` (path → text or bytes) at the root. */
export async function extensionZip(files: Record<string, string | Buffer>): Promise<Buffer> {
  const archive = new ZipArchive({ zlib: { level: 6 } });
  const chunks: Buffer[] = [];
  archive.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    archive.on('end', resolve);
    archive.on('error', reject);
  });
  for (const [name, content] of Object.entries(files)) archive.append(content, { name });
  await archive.finalize();
  await ended;
  return Buffer.concat(chunks);
}

/** One entry of a hand-built zip; the fields a well-behaved zip tool would never write are settable. */
export interface RawZipEntry {
  readonly name: string;
  readonly data?: Buffer | string;
  /** Unix mode in the external attributes (`0o120777` a symlink); default a plain file or folder. */
  readonly mode?: number;
  /** Deflate the data (method 8) instead of storing it. */
  readonly deflate?: boolean;
  /** The uncompressed size written in the headers, when it should lie. */
  readonly declaredSize?: number;
}

/**
 * A zip written byte by byte, for what archiver refuses to write (`../` names, symlinks, sizes that
 * lie): local headers, data, central directory, end record. No zip64, no data descriptors.
 */
export function rawZip(entries: readonly RawZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const plain = Buffer.from(entry.data ?? '');
    const stored = entry.deflate ? deflateRawSync(plain) : plain;
    const size = entry.declaredSize ?? plain.length;
    const mode = entry.mode ?? (entry.name.endsWith('/') ? 0o040755 : 0o100644);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x800, 6);
    local.writeUInt16LE(entry.deflate ? 8 : 0, 8);
    local.writeUInt32LE(crc32(plain), 14);
    local.writeUInt32LE(stored.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, stored);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x800, 8);
    central.writeUInt16LE(entry.deflate ? 8 : 0, 10);
    central.writeUInt32LE(crc32(plain), 16);
    central.writeUInt32LE(stored.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE((mode << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += local.length + name.length + stored.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
