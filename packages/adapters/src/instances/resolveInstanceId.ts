import { randomUUID } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { INSTANCE_ID } from './InstanceAuth.ts';

/** The file in the data folder that keeps the instance's id across restarts. */
export const INSTANCE_ID_FILE = 'instance-id';

/**
 * This instance's id: `configured` (`LOCAL_INSTANCE_ID`) when given, else the one kept in
 * `<dataDir>/instance-id`, made once (`i-` and a UUID) so a restarted instance is the same instance
 * and finds its own old sessions. An id must be 1 to 64 letters, digits, `_` or `-`.
 */
export async function resolveInstanceId(options: {
  dataDir: string;
  configured?: string | undefined;
}): Promise<{ id: string; source: 'configured' | 'data folder' | 'new' }> {
  if (options.configured !== undefined)
    return { id: checked(options.configured, 'LOCAL_INSTANCE_ID'), source: 'configured' };
  const file = join(options.dataDir, INSTANCE_ID_FILE);
  try {
    return { id: checked((await readFile(file, 'utf8')).trim(), file), source: 'data folder' };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const id = `i-${randomUUID()}`;
  // A host with neither local browsers nor SQLite may not have made the folder yet: private, like them.
  await mkdir(options.dataDir, { recursive: true, mode: 0o700 });
  try {
    await writeFile(file, `${id}\n`, { mode: 0o600, flag: 'wx' });
    return { id, source: 'new' };
  } catch (error) {
    // Another process made it first: take its id.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return { id: checked((await readFile(file, 'utf8')).trim(), file), source: 'data folder' };
  }
}

function checked(id: string, where: string): string {
  if (!INSTANCE_ID.test(id)) {
    throw new Error(
      `${where}: an instance id is 1 to 64 letters, digits, '_' or '-' (got ${JSON.stringify(id)}).`,
    );
  }
  return id;
}
