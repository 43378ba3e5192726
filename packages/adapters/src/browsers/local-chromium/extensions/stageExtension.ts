import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ExtensionInvalidError } from '@browserdeck/domain';
import { unpackExtensionArchive } from '../../../extensions/unpackExtensionArchive.ts';
import { checkExtensionManifest } from './checkExtensionManifest.ts';
import { denyFileAccess } from './denyFileAccess.ts';
import { unpackedExtensionIds } from './unpackedExtensionIds.ts';

/** The folder of a profile where a session's extension is unpacked (beside Downloads). */
export const EXTENSION_DIR_NAME = 'BrowserdeckExtension';

/** An extension unpacked for one browser: where, and the ids Chromium may give it. */
export interface StagedExtension {
  readonly dir: string;
  readonly ids: readonly string[];
}

/**
 * Unpacks a session's extension into its profile (`<profile>/BrowserdeckExtension`, the only
 * folder its confined browser sees besides the system's; files 0644, folders 0755, owned by the
 * service: the browser reads them and cannot change them), refuses a manifest asking for a
 * permission local browsers do not grant (`checkExtensionManifest`), and switches its `file:` access
 * off (`denyFileAccess`). What an earlier browser left there (a crash in a persistent profile) is
 * removed first.
 */
export async function stageExtension(
  archive: Uint8Array,
  profileDir: string,
  owner: { uid: number; gid: number } | null,
): Promise<StagedExtension> {
  const dir = join(profileDir, EXTENSION_DIR_NAME);
  // Chromium reads --load-extension as a comma-separated list.
  if (dir.includes(','))
    throw new Error(`A profile folder with a comma cannot load an extension: ${profileDir}`);
  await rm(dir, { recursive: true, force: true });
  await unpackExtensionArchive(archive, dir);
  const manifest = parseManifest(await readFile(join(dir, 'manifest.json'), 'utf8'));
  checkExtensionManifest(manifest);
  const ids = await unpackedExtensionIds(dir, manifest.key);
  await denyFileAccess(profileDir, ids, owner);
  return { dir, ids };
}

function parseManifest(text: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text.replace(/^\uFEFF/, ''));
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
      return parsed as Record<string, unknown>;
  } catch {
    // Refused below.
  }
  throw new ExtensionInvalidError('The extension’s manifest.json is not a JSON object.');
}
