/**
 * Limits on an uploaded extension (http-api.md §5, §13). Stagehand 4's own runtime extension is a
 * ~560 KB zip of a few dozen files, so these leave ample room while keeping a zip bomb, or a
 * thousands-of-files archive, from filling a project's storage or a browser's disk.
 */
/** The zip as uploaded, in bytes (10 MiB). */
export const EXTENSION_ARCHIVE_MAX_BYTES = 10 * 1024 * 1024;
/** All its files once inflated, in bytes (50 MiB). */
export const EXTENSION_UNPACKED_MAX_BYTES = 50 * 1024 * 1024;
/** Entries in the zip, files and folders together. */
export const EXTENSION_MAX_ENTRIES = 2000;
/** `manifest.json` itself, in bytes: it is read into memory and parsed. */
export const EXTENSION_MANIFEST_MAX_BYTES = 1024 * 1024;
/** The manifest's `name`, in characters (Chrome shows at most 75; a `__MSG_…__` key may be longer). */
export const EXTENSION_NAME_MAX_LENGTH = 200;
/** The uploaded file's name, in characters; longer names are cut. */
export const EXTENSION_FILE_NAME_MAX_LENGTH = 255;
/**
 * Extensions one project holds (http-api.md §5, §13): one more is 409 `extension_limit_reached`. Each
 * zip is stored in the database, so this bounds what one project keeps there (with the size limit).
 */
export const EXTENSIONS_PER_PROJECT_MAX = 100;
/** Manifest versions a Chromium build loads. */
export const EXTENSION_MANIFEST_VERSIONS = [2, 3] as const;

/** A manifest version a Chromium build loads. */
export type ExtensionManifestVersion = (typeof EXTENSION_MANIFEST_VERSIONS)[number];

/** The name an upload without a usable file name is kept under. */
export const EXTENSION_FILE_NAME_DEFAULT = 'extension.zip';

/**
 * The file name an uploaded extension is kept under: the base name of what the client sent (its
 * own folders mean nothing here), control characters dropped, trimmed, cut to
 * `EXTENSION_FILE_NAME_MAX_LENGTH`; `EXTENSION_FILE_NAME_DEFAULT` when nothing is left. Only shown
 * back, never used as a path, so it is tidied rather than refused.
 */
export function extensionFileName(name: string | null | undefined): string {
  const raw = name ?? '';
  const base = raw
    .slice(Math.max(raw.lastIndexOf('/'), raw.lastIndexOf('\\')) + 1)
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it drops
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .trim()
    .slice(0, EXTENSION_FILE_NAME_MAX_LENGTH);
  return base === '' || base === '.' || base === '..' ? EXTENSION_FILE_NAME_DEFAULT : base;
}
