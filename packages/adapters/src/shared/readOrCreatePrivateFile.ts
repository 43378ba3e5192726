import { randomBytes } from 'node:crypto';
import { link, readFile, unlink, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { securePrivateDir } from './securePrivateDir.ts';

/**
 * The content of `file`, or — when it does not exist — `create()`'s content written there with mode
 * 0600. Its folder is the private data folder: created 0700, or narrowed to 0700 with its files to
 * 0600 when it existed with looser modes (`securePrivateDir`), so every host that loads its keys
 * through here gets a private folder. Several processes starting at once agree on one content: a
 * private temporary file is hard-linked into place, so readers never see half a file and only the
 * first writer wins; the others read the winner's. `created` says whether this call wrote it.
 */
export async function readOrCreatePrivateFile(
  file: string,
  create: () => string,
): Promise<{ content: string; created: boolean }> {
  await securePrivateDir(dirname(file));
  const existing = await readIfPresent(file);
  if (existing !== null) return { content: existing, created: false };
  const content = create();
  const temporary = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(temporary, content, { mode: 0o600, flag: 'wx' });
  try {
    await placeExclusively(temporary, file, content);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return { content: await readFile(file, 'utf8'), created: false };
  } finally {
    await unlink(temporary).catch(() => undefined);
  }
  return { content, created: true };
}

/** Links `temporary` to `file`; where hard links are unsupported, writes `file` exclusively instead. */
async function placeExclusively(temporary: string, file: string, content: string): Promise<void> {
  try {
    await link(temporary, file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw error;
    await writeFile(file, content, { mode: 0o600, flag: 'wx' });
  }
}

async function readIfPresent(file: string): Promise<string | null> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
