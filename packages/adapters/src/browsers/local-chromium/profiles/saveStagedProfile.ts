import { randomBytes } from 'node:crypto';
import { chmod, lchown, mkdir, readdir, rename, rm } from 'node:fs/promises';
import { copyContextProfile } from './copyContextProfile.ts';

/**
 * Writes a context profile that ran on a size-limited disk (`staged`) back to its folder
 * `contextDir`: first a full copy into a sibling folder on the same disk (so a failure leaves the
 * context as it was), then the old entries go and the new ones are renamed in. The folder itself
 * stays (its creation time is the context's). Like every copy of a profile, caches, Downloads,
 * Chromium's lock links and anything but plain files and folders are left out.
 */
export async function saveStagedProfile(
  staged: string,
  contextDir: string,
  owner: { uid: number; gid: number } | null,
): Promise<void> {
  const incoming = `${contextDir}.incoming-${randomBytes(6).toString('hex')}`;
  // A context named by a session before it was ever created has no folder yet.
  await mkdir(contextDir, { recursive: true, mode: 0o700 });
  await mkdir(incoming, { mode: 0o700 });
  try {
    await copyContextProfile(staged, incoming, owner);
    for (const name of await readdir(contextDir))
      await rm(`${contextDir}/${name}`, { recursive: true, force: true });
    for (const name of await readdir(incoming)) await rename(`${incoming}/${name}`, `${contextDir}/${name}`);
    if (owner) await lchown(contextDir, owner.uid, owner.gid);
    await chmod(contextDir, 0o700);
  } finally {
    await rm(incoming, { recursive: true, force: true });
  }
}
