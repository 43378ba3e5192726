import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { type FileHandle, lstat, mkdir, open, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { folderPath, openFolder } from '../files/openFolder.ts';

/** Largest preferences file read back; Chromium's are a few kilobytes, anything far past it is not one. */
const MAX_PREFERENCES_BYTES = 16 * 1024 * 1024;

/**
 * Changes the profile's preferences (`Default/Preferences`) before the browser starts: `edit` is
 * handed what is there (a context's profile keeps its own) and changes it in place; the files are
 * given to `owner`, the browser's user. Chromium keeps settings found there (`denyFileAccess`,
 * `blockBrowserPages`).
 *
 * A context's profile is the folder an earlier, confined browser wrote, and the service is often
 * root, so nothing it left is followed: a link (or anything else not a folder) in place of `Default`
 * is removed and a folder made there; `Default` is then opened without following a link
 * (`openFolder`) and worked in through that handle; `Preferences` is read only when it is a plain
 * file with one link (`O_NOFOLLOW`), and replaced, never written through: a new file is created
 * exclusively beside it (`O_EXCL | O_NOFOLLOW`), given to `owner` by its handle, and renamed over
 * it, which replaces a link left there rather than what it points at.
 */
export async function editPreferences(
  profileDir: string,
  owner: { uid: number; gid: number } | null,
  edit: (preferences: Record<string, unknown>) => void,
): Promise<void> {
  const folder = await openDefaultFolder(join(profileDir, 'Default'));
  try {
    const dir = folderPath(folder);
    const preferences = await readPreferences(`${dir}/Preferences`);
    edit(preferences);
    if (owner) await folder.chown(owner.uid, owner.gid);
    const temporary = `${dir}/.Preferences.browserdeck-${randomBytes(8).toString('hex')}`;
    const handle = await open(
      temporary,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
      0o600,
    );
    try {
      try {
        if (owner) await handle.chown(owner.uid, owner.gid);
        await handle.writeFile(JSON.stringify(preferences));
      } finally {
        await handle.close();
      }
      await rename(temporary, `${dir}/Preferences`);
    } catch (error) {
      await unlink(temporary).catch(() => {});
      throw error;
    }
  } finally {
    await folder.close();
  }
}

/** The object at `key` of `parent`, made (or replacing whatever else is there) when missing. */
export function preferenceObject(parent: Record<string, unknown>, key: string): Record<string, unknown> {
  const value = parent[key];
  if (typeof value === 'object' && value !== null && !Array.isArray(value))
    return value as Record<string, unknown>;
  const made: Record<string, unknown> = {};
  parent[key] = made;
  return made;
}

/** `Default`, opened without following a link: made when missing, and made anew when it is not a folder. */
async function openDefaultFolder(path: string): Promise<FileHandle> {
  const found = await lstat(path).catch(() => null);
  // unlink removes a link itself, never its target; the browser is not running, so nothing races it.
  if (!found?.isDirectory()) {
    if (found) await unlink(path);
    await mkdir(path, { mode: 0o700 });
  }
  const folder = await openFolder(path);
  if (!folder) throw new Error(`The profile's Default folder ${path} is not a folder.`);
  return folder;
}

/** The preferences in `path` when it is a plain file with one link, else none (Chromium rewrites unreadable ones too). */
async function readPreferences(path: string): Promise<Record<string, unknown>> {
  let handle: FileHandle;
  try {
    // O_NONBLOCK: a FIFO left there must not stall the launch (it is then refused as not a file).
    handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return {};
  }
  try {
    const stats = await handle.stat();
    // A hard link would be another file's content the browser could not read, copied into its profile.
    if (!stats.isFile() || stats.nlink !== 1 || stats.size > MAX_PREFERENCES_BYTES) return {};
    return parseObject(await handle.readFile('utf8'));
  } finally {
    await handle.close();
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
