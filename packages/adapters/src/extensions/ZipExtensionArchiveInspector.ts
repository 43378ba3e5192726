import {
  EXTENSION_MANIFEST_MAX_BYTES,
  EXTENSION_MANIFEST_VERSIONS,
  EXTENSION_NAME_MAX_LENGTH,
  type ExtensionArchiveInspector,
  type ExtensionArchiveSummary,
  ExtensionInvalidError,
  type ExtensionManifestVersion,
  textProblem,
} from '@browserdeck/domain';
import { EXTENSION_MANIFEST_FILE, readExtensionArchive } from './readExtensionArchive.ts';

/**
 * Checks an extension zip with yauzl (`readExtensionArchive`): every entry is inflated and counted,
 * nothing is written, and `manifest.json` at the root must be a JSON object with a non-empty string
 * `name`, a non-empty string `version` (neither holding a control character: `textProblem`'s `name`
 * rule) and `manifest_version` 2 or 3 (what Chromium needs to load it).
 */
export class ZipExtensionArchiveInspector implements ExtensionArchiveInspector {
  async inspect(archive: Uint8Array): Promise<ExtensionArchiveSummary> {
    let manifest: Buffer | null = null;
    const totals = await readExtensionArchive(archive, {
      file: async (entry, content) => {
        const chunks: Uint8Array[] = [];
        let size = 0;
        const isManifest = entry.path === EXTENSION_MANIFEST_FILE;
        for await (const chunk of content) {
          if (!isManifest) continue;
          size += chunk.byteLength;
          if (size > EXTENSION_MANIFEST_MAX_BYTES) {
            throw new ExtensionInvalidError(
              `The extension's ${EXTENSION_MANIFEST_FILE} is larger than ${EXTENSION_MANIFEST_MAX_BYTES} bytes.`,
            );
          }
          chunks.push(chunk);
        }
        if (isManifest) manifest = Buffer.concat(chunks);
      },
    });
    // readExtensionArchive refuses a zip without it, so it has been read.
    const fields = parseManifest(manifest ?? Buffer.alloc(0));
    return { ...fields, files: totals.files };
  }
}

function parseManifest(bytes: Buffer): Omit<ExtensionArchiveSummary, 'files'> {
  let parsed: unknown;
  try {
    // Editors on Windows like to start UTF-8 files with a byte-order mark; Chromium accepts one.
    parsed = JSON.parse(bytes.toString('utf8').replace(/^\uFEFF/, ''));
  } catch {
    throw new ExtensionInvalidError(`The extension's ${EXTENSION_MANIFEST_FILE} is not valid JSON.`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ExtensionInvalidError(`The extension's ${EXTENSION_MANIFEST_FILE} is not a JSON object.`);
  }
  const { name, version, manifest_version: manifestVersion } = parsed as Record<string, unknown>;
  if (typeof name !== 'string' || name.trim() === '') {
    throw new ExtensionInvalidError(
      `The extension's ${EXTENSION_MANIFEST_FILE} needs a non-empty string "name".`,
    );
  }
  // The name is shown in the console, logs and Extensions.getExtensions: no control character (a line
  // break or an escape sequence could forge a log line or a terminal's output), no lone surrogate.
  const nameProblem = textProblem(name, 'name');
  if (nameProblem) {
    throw new ExtensionInvalidError(`The extension's "name" ${nameProblem}.`);
  }
  if (name.trim().length > EXTENSION_NAME_MAX_LENGTH) {
    throw new ExtensionInvalidError(
      `The extension's name is longer than ${EXTENSION_NAME_MAX_LENGTH} characters.`,
    );
  }
  if (typeof version !== 'string' || version.trim() === '') {
    throw new ExtensionInvalidError(
      `The extension's ${EXTENSION_MANIFEST_FILE} needs a non-empty string "version".`,
    );
  }
  const versionProblem = textProblem(version, 'name');
  if (versionProblem) {
    throw new ExtensionInvalidError(`The extension's "version" ${versionProblem}.`);
  }
  if (!EXTENSION_MANIFEST_VERSIONS.includes(manifestVersion as ExtensionManifestVersion)) {
    throw new ExtensionInvalidError(
      `The extension's ${EXTENSION_MANIFEST_FILE} needs "manifest_version" ${EXTENSION_MANIFEST_VERSIONS.join(' or ')}.`,
    );
  }
  return { name: name.trim(), version, manifestVersion: manifestVersion as ExtensionManifestVersion };
}
