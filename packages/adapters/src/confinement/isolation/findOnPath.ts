import { access, constants, stat } from 'node:fs/promises';
import { delimiter, join } from 'node:path';

/** The first executable file called `name` in the folders of `pathVariable` (a PATH), or null. */
export async function findOnPath(name: string, pathVariable: string | undefined): Promise<string | null> {
  for (const dir of (pathVariable ?? '').split(delimiter).filter(Boolean)) {
    const path = join(dir, name);
    if (await isExecutableFile(path)) return path;
  }
  return null;
}

/** True for an executable regular file. */
export async function isExecutableFile(path: string): Promise<boolean> {
  try {
    await access(path, constants.X_OK);
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}
