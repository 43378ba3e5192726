import { lstat, mkdir, rm } from 'node:fs/promises';

/**
 * Makes `dir` a real folder: whatever stands at that path and is not one (a link a previous browser
 * left in a persistent profile, a file) is removed, never followed, before the folder is made. The
 * service then claims it for the browser's user (`chown`, `chmod`, which follow links): without this,
 * a `Downloads` link planted in a context profile would hand any host folder to that user.
 * Call it while no browser runs on the profile.
 */
export async function plainFolder(dir: string): Promise<void> {
  const found = await lstat(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
  if (found && !found.isDirectory()) await rm(dir, { force: true });
  await mkdir(dir, { recursive: true });
}
