import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * The content of `file`, or — when it does not exist — `create()`'s content written there with mode
 * 0600 (its folder 0700). Several processes starting at once agree on one content: a private
 * temporary file is hard-linked into place, so readers never see half a file and only the first
 * writer wins; the others read the winner's. `created` says whether this call wrote it.
 */
export async function readOrCreatePrivateFile(
  file: string,
  create: () => string,
): Promise<{ content: string; created: boolean }> {
  const existing = await readIfPresent(file);
  if (existing !== null) return { content: existing, created: false };
  const content = create();
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
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
