import { lstat, mkdir, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Whose session each kept downloads folder was: `<dir>/.owners/<providerSessionId>` holds the
 * account's id, written by the service before the folder is moved in (the browser, which fills the
 * folder, never writes here, so it cannot name another account). Beside the folders rather than in
 * them: a file inside would be zipped as a download and counted against the budget.
 */
const OWNERS = '.owners';
/** Longest owner id read back, in bytes (ids are UUIDs; anything longer was not written by us). */
const MAX_OWNER_BYTES = 512;

/**
 * Records that `providerSessionId`'s kept downloads are `ownerId`'s, dated `now`: before the folder
 * is moved in, so a sweep never finds the folder without its owner.
 */
export async function writeDownloadsOwner(
  dir: string,
  providerSessionId: string,
  ownerId: string,
  now: Date,
): Promise<void> {
  await mkdir(join(dir, OWNERS), { recursive: true, mode: 0o700 });
  const file = join(dir, OWNERS, providerSessionId);
  await writeFile(file, ownerId, { mode: 0o600 });
  await utimes(file, now, now);
}

/** The account of `providerSessionId`'s kept downloads; `''` when none was recorded (an older folder). */
export async function readDownloadsOwner(dir: string, providerSessionId: string): Promise<string> {
  const text = await readFile(join(dir, OWNERS, providerSessionId), 'utf8').catch(() => '');
  return Buffer.byteLength(text) > MAX_OWNER_BYTES ? '' : text;
}

/** Forgets the owner of `providerSessionId`'s kept downloads (they are gone). */
export async function removeDownloadsOwner(dir: string, providerSessionId: string): Promise<void> {
  await rm(join(dir, OWNERS, providerSessionId), { force: true });
}

/**
 * Forgets the owners recorded before `before` for folders that are not kept (`kept`: the folders'
 * names): left by a folder removed elsewhere, or a move that failed. A recent one may be of a folder
 * on its way in (another instance sharing the data folder), so it stays for now.
 */
export async function pruneDownloadsOwners(
  dir: string,
  kept: ReadonlySet<string>,
  before: Date,
): Promise<void> {
  const recorded = await readdir(join(dir, OWNERS)).catch(() => [] as string[]);
  for (const name of recorded) {
    if (kept.has(name)) continue;
    const stats = await lstat(join(dir, OWNERS, name)).catch(() => null);
    if (stats && stats.mtime < before) await removeDownloadsOwner(dir, name);
  }
}
