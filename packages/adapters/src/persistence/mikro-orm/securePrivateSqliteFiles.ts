import { chmod, mkdir, open, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../../shared/securePrivateDir.ts';

/** The files SQLite keeps beside a database: the write-ahead log, its shared-memory index, a rollback journal. */
const COMPANIONS = ['-wal', '-shm', '-journal'] as const;

/**
 * Makes a SQLite database file private (mode 0600) before it is opened, and its companions with it.
 * A missing parent folder is created 0700; an existing one is left to its owner (a `DATABASE_URL`
 * may point anywhere; the data folder itself is made private by `securePrivateDir`). Run it again
 * after opening to catch companions another process created meanwhile.
 *
 * Why chmod and not a restrictive umask around the open: SQLite (os_unix.c) creates the `-wal`,
 * `-journal` and `-shm` files with the permission bits of the database file itself, whatever the
 * umask, so once the database file is 0600 (created so here, or narrowed) every companion SQLite
 * creates later is 0600 too, also when the WAL reappears long after start. A umask is process-wide:
 * changing it around the (lazy, asynchronous) open would race with every other file this process
 * creates meanwhile, and worker threads cannot change it at all. Companions left over with looser
 * modes (an older version, a restored backup) are not re-created by SQLite, so they are narrowed here.
 */
export async function securePrivateSqliteFiles(path: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: PRIVATE_DIR_MODE });
  // 'a' creates the file when missing (empty: SQLite takes a 0-byte file as a new database) and
  // never truncates one another process is writing; the mode applies only to a file it creates.
  await (await open(path, 'a', PRIVATE_FILE_MODE)).close();
  for (const file of [path, ...COMPANIONS.map((suffix) => `${path}${suffix}`)]) {
    const info = await stat(file).catch(() => null);
    if (!info || (info.mode & 0o077) === 0) continue;
    // Someone else's file (EPERM) stays as it is: opening it is that owner's decision.
    await chmod(file, info.mode & PRIVATE_FILE_MODE).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPERM' && error.code !== 'ENOENT') throw error;
    });
  }
}
