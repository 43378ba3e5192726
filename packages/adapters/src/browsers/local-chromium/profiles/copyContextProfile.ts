import { copyFile, lchown, mkdir, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * What a copy leaves out: caches (rebuilt as needed), downloads and uploads (a session's files, not
 * browser state) and Chromium's `Singleton*` lock links of the running browser.
 */
const SKIPPED_DIRS: ReadonlySet<string> = new Set([
  'Cache',
  'Code Cache',
  'GPUCache',
  'GrShaderCache',
  'GraphiteDawnCache',
  'ShaderCache',
  'DawnGraphiteCache',
  'DawnWebGPUCache',
  'Crashpad',
  'Downloads',
  'Uploads',
]);

/**
 * Copies a context's profile folder `from` into the empty folder `to`, for a session that must not
 * save back to it; a missing `from` copies nothing (a context never used). The service copies what
 * a browser wrote, so only plain files and folders are copied: symbolic links, sockets and pipes are
 * left out, so no link can make it read (or, below, give away) a file outside the profile, and no
 * pipe can stall it. With `owner`, every copied entry is given to the browser's user (`lchown`:
 * never through a link), as the browser's own profile must be.
 */
export async function copyContextProfile(
  from: string,
  to: string,
  owner: { uid: number; gid: number } | null,
): Promise<void> {
  const source = await stat(from).catch(() => null);
  if (!source?.isDirectory()) return;
  await copyTree(from, to, owner);
}

async function copyTree(from: string, to: string, owner: { uid: number; gid: number } | null): Promise<void> {
  for (const entry of await readdir(from, { withFileTypes: true })) {
    const src = join(from, entry.name);
    const dest = join(to, entry.name);
    if (entry.isDirectory()) {
      if (!keptInProfile(entry.name, true)) continue;
      await mkdir(dest, { mode: 0o700 });
      if (owner) await lchown(dest, owner.uid, owner.gid);
      await copyTree(src, dest, owner);
    } else if (entry.isFile() && keptInProfile(entry.name, false)) {
      await copyFile(src, dest);
      if (owner) await lchown(dest, owner.uid, owner.gid);
    }
  }
}

/** Whether a copy of a profile keeps the folder or plain file `name` (`SKIPPED_DIRS`, lock links). */
export function keptInProfile(name: string, directory: boolean): boolean {
  return directory ? !SKIPPED_DIRS.has(name) : !name.startsWith('Singleton');
}
