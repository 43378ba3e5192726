import { chown, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Writes into the profile's preferences, before the browser starts, that the extensions `ids` may
 * not read `file:` URLs. Chromium gives an unpacked extension that access by default (a developer
 * feature) and keeps a setting found in the preferences (`UnpackedInstaller::GetFlags`); with it, an
 * extension with `<all_urls>` (Stagehand's), or a client driving it, could read the files the
 * browser sees, which the command policy refuses to pages. Existing preferences (a context's
 * profile) are kept; the files are given to `owner`, the browser's user.
 */
export async function denyFileAccess(
  profileDir: string,
  ids: readonly string[],
  owner: { uid: number; gid: number } | null,
): Promise<void> {
  const dir = join(profileDir, 'Default');
  const file = join(dir, 'Preferences');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const preferences = await readFile(file, 'utf8').then(parseObject, () => ({}));
  const extensions = objectAt(preferences, 'extensions');
  const settings = objectAt(extensions, 'settings');
  for (const id of ids) objectAt(settings, id).newAllowFileAccess = false;
  await writeFile(file, JSON.stringify(preferences), { mode: 0o600 });
  if (owner) {
    await chown(dir, owner.uid, owner.gid);
    await chown(file, owner.uid, owner.gid);
  }
}

function parseObject(text: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {};
  } catch {
    // Chromium rewrites unreadable preferences too.
    return {};
  }
}

/** The object at `key` of `parent`, made (or replacing whatever else is there) when missing. */
function objectAt(parent: Record<string, unknown>, key: string): Record<string, unknown> {
  const value = parent[key];
  if (typeof value === 'object' && value !== null && !Array.isArray(value))
    return value as Record<string, unknown>;
  const made: Record<string, unknown> = {};
  parent[key] = made;
  return made;
}
