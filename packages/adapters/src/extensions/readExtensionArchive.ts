import {
  EXTENSION_ARCHIVE_MAX_BYTES,
  EXTENSION_MAX_ENTRIES,
  EXTENSION_UNPACKED_MAX_BYTES,
  ExtensionInvalidError,
} from '@browserdeck/domain';
import yauzl, { type Entry, type ZipFile } from 'yauzl';

/** The name of an extension's manifest, at the root of its zip. */
export const EXTENSION_MANIFEST_FILE = 'manifest.json';

/** Longest path inside an extension, and longest single segment of it, in UTF-8 bytes (Linux's limits). */
const MAX_PATH_BYTES = 1024;
const MAX_SEGMENT_BYTES = 255;
/** Unix file types in the high half of `externalFileAttributes` (`S_IFMT` bits). */
const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
/** Compression methods Chromium's own unpacker (and yauzl) inflate: stored and deflate. */
const READABLE_METHODS = new Set([0, 8]);
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is refused
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is escaped
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/g;

/** One entry of a checked extension zip: a path relative to the extension's root, `/`-separated. */
export interface ExtensionArchiveEntry {
  readonly path: string;
  readonly directory: boolean;
}

/** What the visitor of `readExtensionArchive` is handed for each entry. */
export interface ExtensionArchiveVisitor {
  /** A folder (named by its own entry, or implied by a file's path: then it is not visited). */
  directory?(entry: ExtensionArchiveEntry): Promise<void>;
  /**
   * A file and its inflated bytes, counted against the limits as they are read: iterating `content`
   * fails with `ExtensionInvalidError` past them. Leaving it unread skips those checks for it.
   */
  file(entry: ExtensionArchiveEntry, content: AsyncIterable<Uint8Array>): Promise<void>;
}

/** Counts of a zip read to the end. */
export interface ExtensionArchiveTotals {
  readonly files: number;
  readonly directories: number;
  /** Bytes inflated (of the files whose content was read). */
  readonly bytes: number;
}

/**
 * Reads an extension zip in two passes. First the central directory: the entry count, every path
 * (relative, inside the root: no `..`, absolute path, backslash, drive letter, NUL or control
 * character, empty or `.` segment), no symlink or other special file, no encryption, no duplicate,
 * a `manifest.json` at the root, and the declared inflated size, all against `extensionRules.ts`.
 * Then each entry in order, counting the bytes actually inflated, since a zip may lie about sizes.
 * Any breach is an `ExtensionInvalidError`; errors of the visitor itself pass through unchanged.
 */
export async function readExtensionArchive(
  archive: Uint8Array,
  visitor: ExtensionArchiveVisitor,
): Promise<ExtensionArchiveTotals> {
  if (archive.byteLength > EXTENSION_ARCHIVE_MAX_BYTES) {
    throw new ExtensionInvalidError(`The extension zip is larger than ${EXTENSION_ARCHIVE_MAX_BYTES} bytes.`);
  }
  const zip = await openZip(archive);
  try {
    const entries = await centralDirectory(zip);
    let bytes = 0;
    let files = 0;
    let directories = 0;
    for (const { entry, checked } of entries) {
      if (checked.directory) {
        directories += 1;
        await visitor.directory?.(checked);
        continue;
      }
      files += 1;
      await visitor.file(
        checked,
        inflate(zip, entry, checked.path, (n) => {
          bytes += n;
          return bytes;
        }),
      );
    }
    return { files, directories, bytes };
  } finally {
    zip.close();
  }
}

async function openZip(archive: Uint8Array): Promise<ZipFile> {
  try {
    return await yauzl.fromBufferPromise(
      Buffer.from(archive.buffer, archive.byteOffset, archive.byteLength),
      {
        lazyEntries: true,
        autoClose: false,
        // Names are decoded and judged here (`checkEntry`), so that every refusal says why in our words.
        decodeStrings: false,
        strictFileNames: true,
        validateEntrySizes: true,
      },
    );
  } catch (error) {
    throw invalid('The extension is not a readable zip file', error);
  }
}

/** The first pass: every entry checked from the central directory alone, before anything is inflated. */
async function centralDirectory(zip: ZipFile): Promise<{ entry: Entry; checked: ExtensionArchiveEntry }[]> {
  if (zip.entryCount > EXTENSION_MAX_ENTRIES) {
    throw new ExtensionInvalidError(
      `The extension zip has ${zip.entryCount} entries; at most ${EXTENSION_MAX_ENTRIES} are allowed.`,
    );
  }
  const out: { entry: Entry; checked: ExtensionArchiveEntry }[] = [];
  const files = new Set<string>();
  const directories = new Set<string>();
  let declared = 0;
  try {
    for await (const entry of zip.eachEntry()) {
      const checked = checkEntry(entry);
      const seen = checked.directory ? directories : files;
      if (files.has(checked.path) || directories.has(checked.path)) {
        throw new ExtensionInvalidError(`The extension zip holds "${checked.path}" twice.`);
      }
      seen.add(checked.path);
      declared += entry.uncompressedSize;
      if (declared > EXTENSION_UNPACKED_MAX_BYTES) {
        throw new ExtensionInvalidError(
          `The extension's files add up to more than ${EXTENSION_UNPACKED_MAX_BYTES} bytes once unpacked.`,
        );
      }
      out.push({ entry, checked });
    }
  } catch (error) {
    if (error instanceof ExtensionInvalidError) throw error;
    throw invalid('The extension zip is damaged', error);
  }
  // A file whose path is also another entry's folder ("a" and "a/b") cannot be unpacked.
  for (const path of files) {
    for (const parent of parentsOf(path)) {
      if (files.has(parent)) {
        throw new ExtensionInvalidError(`"${parent}" in the extension zip is both a file and a folder.`);
      }
    }
  }
  if (!files.has(EXTENSION_MANIFEST_FILE)) {
    throw new ExtensionInvalidError(
      `The extension zip has no ${EXTENSION_MANIFEST_FILE} at its root (zip the extension's folder contents, not the folder).`,
    );
  }
  return out;
}

/** One entry's name and kind, checked; throws `ExtensionInvalidError` otherwise. */
function checkEntry(entry: Entry): ExtensionArchiveEntry {
  const raw = yauzl.getFileNameLowLevel(
    entry.generalPurposeBitFlag,
    entry.fileNameRaw,
    entry.extraFields,
    true,
  );
  const directory = raw.endsWith('/');
  const path = directory ? raw.slice(0, -1) : raw;
  const problem = pathProblem(path);
  if (problem !== null)
    throw new ExtensionInvalidError(`The extension zip has an unsafe path "${printable(raw)}": ${problem}.`);
  const type = (entry.externalFileAttributes >>> 16) & S_IFMT;
  // Zips made off Unix leave the type bits at 0; on Unix, only plain files and folders are taken.
  if (type !== 0 && type !== (directory ? S_IFDIR : S_IFREG)) {
    throw new ExtensionInvalidError(
      `"${path}" in the extension zip is a symlink or special file; only files and folders are allowed.`,
    );
  }
  if (entry.isEncrypted()) throw new ExtensionInvalidError(`"${path}" in the extension zip is encrypted.`);
  if (!directory && !READABLE_METHODS.has(entry.compressionMethod)) {
    throw new ExtensionInvalidError(
      `"${path}" in the extension zip uses compression method ${entry.compressionMethod}; only stored and deflate are read.`,
    );
  }
  return { path, directory };
}

/** Why a relative path is unsafe to create under a folder, or null when it is safe. */
function pathProblem(path: string): string | null {
  if (path.length === 0) return 'an empty name';
  if (CONTROL_CHARACTER.test(path)) return 'a control character';
  if (path.includes('\\')) return 'a backslash';
  if (path.startsWith('/')) return 'an absolute path';
  if (/^[A-Za-z]:/.test(path)) return 'a drive letter';
  if (Buffer.byteLength(path) > MAX_PATH_BYTES) return `longer than ${MAX_PATH_BYTES} bytes`;
  for (const segment of path.split('/')) {
    if (segment === '') return 'an empty segment';
    if (segment === '.' || segment === '..') return `a "${segment}" segment`;
    if (Buffer.byteLength(segment) > MAX_SEGMENT_BYTES)
      return `a segment longer than ${MAX_SEGMENT_BYTES} bytes`;
  }
  return null;
}

/** `a/b/c` → `a`, `a/b`. */
export function parentsOf(path: string): string[] {
  const segments = path.split('/');
  return segments.slice(0, -1).map((_, i) => segments.slice(0, i + 1).join('/'));
}

/** The second pass for one file: its inflated bytes, counted against the entry's size and the total. */
async function* inflate(
  zip: ZipFile,
  entry: Entry,
  path: string,
  addToTotal: (bytes: number) => number,
): AsyncGenerator<Uint8Array> {
  let stream: Awaited<ReturnType<ZipFile['openReadStreamPromise']>>;
  try {
    stream = await zip.openReadStreamPromise(entry);
  } catch (error) {
    throw invalid(`"${path}" in the extension zip cannot be read`, error);
  }
  try {
    let own = 0;
    const chunks = stream[Symbol.asyncIterator]();
    for (;;) {
      let next: IteratorResult<Buffer>;
      try {
        next = await chunks.next();
      } catch (error) {
        throw invalid(`"${path}" in the extension zip cannot be inflated`, error);
      }
      if (next.done) break;
      own += next.value.byteLength;
      if (own > entry.uncompressedSize) {
        throw new ExtensionInvalidError(`"${path}" in the extension zip inflates to more than it declares.`);
      }
      if (addToTotal(next.value.byteLength) > EXTENSION_UNPACKED_MAX_BYTES) {
        throw new ExtensionInvalidError(
          `The extension's files add up to more than ${EXTENSION_UNPACKED_MAX_BYTES} bytes once unpacked.`,
        );
      }
      yield next.value;
    }
  } finally {
    stream.destroy();
  }
}

function invalid(what: string, cause: unknown): ExtensionInvalidError {
  // yauzl's messages name the defect ("invalid central directory file header signature"); they carry
  // nothing of ours, only bytes of the caller's own zip.
  const detail = cause instanceof Error ? `: ${printable(cause.message)}` : '';
  return new ExtensionInvalidError(`${what}${detail}.`);
}

/** A path or message safe to echo: control characters escaped, length capped. */
function printable(text: string): string {
  const escaped = text.replace(
    CONTROL_CHARACTERS,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return escaped.length > 200 ? `${escaped.slice(0, 200)}…` : escaped;
}
