import { chmod, lstat, mkdir, open } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import { parentsOf, readExtensionArchive } from './readExtensionArchive.ts';

const FILE_MODE = 0o644;
const DIR_MODE = 0o755;

/**
 * Unpacks an extension zip into `dir` (created, 0755, when missing; an existing one keeps its mode),
 * with the checks of `readExtensionArchive`: nothing outside `dir`, no symlinks, the entry and size
 * limits counted while inflating. Files are written 0644 and folders 0755 whatever the umask, so a
 * browser running as another user can read them. Files are created exclusively (`wx`): an existing
 * path, or a symlink planted in `dir`, fails the unpack rather than being written through. On failure
 * `dir` may hold part of the extension; the caller removes it.
 */
export async function unpackExtensionArchive(archive: Uint8Array, dir: string): Promise<void> {
  const root = resolve(dir);
  await mkdir(root, { recursive: true, mode: DIR_MODE });
  const made = new Set<string>();
  const ensureDir = async (path: string): Promise<void> => {
    if (made.has(path)) return;
    // The parents first, each made and set to 0755 itself (a recursive mkdir would apply the umask).
    for (const parent of parentsOf(path)) await ensureDir(parent);
    const target = inside(root, path);
    await mkdir(target, { mode: DIR_MODE }).catch(async (error: NodeJS.ErrnoException) => {
      // Only a real folder may already be there: never follow a symlink out of `dir`.
      if (error.code !== 'EEXIST' || !(await lstat(target)).isDirectory()) throw error;
    });
    await chmod(target, DIR_MODE);
    made.add(path);
  };
  await readExtensionArchive(archive, {
    directory: (entry) => ensureDir(entry.path),
    file: async (entry, content) => {
      for (const parent of parentsOf(entry.path)) await ensureDir(parent);
      const handle = await open(inside(root, entry.path), 'wx', FILE_MODE);
      try {
        await handle.chmod(FILE_MODE);
        for await (const chunk of content) {
          for (let done = 0; done < chunk.byteLength; )
            done += (await handle.write(chunk, done)).bytesWritten;
        }
      } finally {
        await handle.close();
      }
    },
  });
}

/** `root` joined with a checked relative path, asserted to stay inside it (a second guard). */
function inside(root: string, path: string): string {
  const target = join(root, ...path.split('/'));
  if (!target.startsWith(root + sep))
    throw new Error(`Refusing to write outside the extension folder: ${path}`);
  return target;
}
