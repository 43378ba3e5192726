import { randomUUID } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { claimFolderSlot, type FolderSlot } from './claimFolderSlot.ts';
import { INSTANCE_ID } from './InstanceAuth.ts';

/** The file in the data folder that keeps the instance's id across restarts. */
export const INSTANCE_ID_FILE = 'instance-id';

/** This instance's id, where it came from, and the folder slot it holds (file-made ids only). */
export interface ResolvedInstanceId {
  readonly id: string;
  readonly source: 'configured' | 'data folder';
  readonly slot?: FolderSlot;
}

/**
 * This instance's id: `configured` (`LOCAL_INSTANCE_ID`) when given; else the one kept in
 * `<dataDir>/instance-id` (made once: `i-` and a UUID), so a restarted instance is the same instance
 * and finds its own old sessions. Processes sharing the folder each hold a slot of it
 * (`claimFolderSlot`): the first is that id, a second one running beside it `<id>-2`, and so on, so
 * two never share an id and each gets its own back when it restarts. An id must be 1 to 64 letters,
 * digits, `_` or `-`.
 */
export async function resolveInstanceId(options: {
  dataDir: string;
  configured?: string | undefined;
}): Promise<ResolvedInstanceId> {
  if (options.configured !== undefined) {
    return { id: checked(options.configured, 'LOCAL_INSTANCE_ID'), source: 'configured' };
  }
  // A host with neither local browsers nor SQLite may not have made the folder yet: private, like them.
  await mkdir(options.dataDir, { recursive: true, mode: 0o700 });
  const base = await folderId(join(options.dataDir, INSTANCE_ID_FILE));
  const slot = await claimFolderSlot(options.dataDir);
  return { id: slot.slot === 1 ? base : `${base}-${slot.slot}`, source: 'data folder', slot };
}

/** The id kept in `file`, made now when there is none (by the first of processes racing to). */
async function folderId(file: string): Promise<string> {
  try {
    return checked((await readFile(file, 'utf8')).trim(), file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const id = `i-${randomUUID()}`;
  try {
    await writeFile(file, `${id}\n`, { mode: 0o600, flag: 'wx' });
    return id;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return checked((await readFile(file, 'utf8')).trim(), file);
  }
}

function checked(id: string, where: string): string {
  // Room for the slot suffix of a folder shared by several processes.
  if (!INSTANCE_ID.test(id) || (where !== 'LOCAL_INSTANCE_ID' && id.length > 60)) {
    throw new Error(
      `${where}: an instance id is 1 to 64 letters, digits, '_' or '-' (got ${JSON.stringify(id)}).`,
    );
  }
  return id;
}
