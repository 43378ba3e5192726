import { chmod, lstat, mkdir, readdir, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';

/** Mode of the data folder: its owner only. */
export const PRIVATE_DIR_MODE = 0o700;
/** Mode of every file the service writes into the data folder. */
export const PRIVATE_FILE_MODE = 0o600;
/** Permission bits that let group or others in. */
const OPEN_TO_OTHERS = 0o077;
const S_ISVTX = 0o1000;

/** What `securePrivateDir` found and changed; worth one log line when anything was changed or refused. */
export interface PrivateDirReport {
  readonly dir: string;
  /** True when the folder did not exist and was created 0700. */
  readonly created: boolean;
  /** The folder and files whose modes were narrowed, each with the mode it had (octal, e.g. `'755'`). */
  readonly tightened: ReadonlyArray<{ readonly path: string; readonly from: string }>;
  /** What could not be narrowed (not ours to change: EPERM), with the error code. */
  readonly refused: ReadonlyArray<{ readonly path: string; readonly code: string }>;
}

/**
 * Makes `dir` a private data folder (http-api.md §10: 0700, files 0600). Missing, it is created with mode
 * 0700 (and so are missing parents) unless `create` is false. Existing, the folder becomes 0700 if
 * group or others had any access, and so does every regular file directly in it become 0600 (the
 * SQLite database and its `-wal`/`-shm`, `jwt-ed25519.pem`, `secret.key`, leftovers): files from an
 * older version, a restored backup or a looser umask are fixed at start. Symbolic links and the
 * contents of subfolders are left alone (the local provider's browser profiles live in `contexts/`;
 * the folder's own 0700 already shuts others out of them). A shared folder (the sticky bit, as on
 * `/tmp`) or a filesystem root is refused with an error instead of being locked down for everyone.
 * A mode the process may not change (EPERM: someone else's folder) is reported, not thrown.
 */
export async function securePrivateDir(
  dir: string,
  options: { create?: boolean } = {},
): Promise<PrivateDirReport> {
  const path = resolve(dir);
  const tightened: Array<{ path: string; from: string }> = [];
  const refused: Array<{ path: string; code: string }> = [];
  const existing = await stat(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
  if (!existing) {
    if (options.create === false) return { dir: path, created: false, tightened, refused };
    // mkdir's mode is narrowed by the umask, never widened: 0700 at most, whatever the umask is.
    await mkdir(path, { recursive: true, mode: PRIVATE_DIR_MODE });
    return { dir: path, created: true, tightened, refused };
  }
  if (!existing.isDirectory()) throw new Error(`The data folder ${path} is not a folder.`);
  if (existing.mode & S_ISVTX || dirname(path) === path) {
    throw new Error(
      `The data folder ${path} is a shared folder; give Browserdeck a folder of its own (it is made private, mode 0700).`,
    );
  }
  await narrow(path, existing.mode, PRIVATE_DIR_MODE, tightened, refused);
  for (const entry of await readdir(path, { withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = join(path, entry.name);
    // lstat: a file that vanished meanwhile (a SQLite -shm at close, a temporary key file) is skipped.
    const info = await lstat(file).catch(() => null);
    if (info?.isFile()) await narrow(file, info.mode, PRIVATE_FILE_MODE, tightened, refused);
  }
  return { dir: path, created: false, tightened, refused };
}

/**
 * Takes group and other access away from `path` when it has any: the owner keeps what it had, up to
 * `mode` (a file becomes 0600, never executable; a folder 0700).
 */
async function narrow(
  path: string,
  current: number,
  mode: number,
  tightened: Array<{ path: string; from: string }>,
  refused: Array<{ path: string; code: string }>,
): Promise<void> {
  if ((current & OPEN_TO_OTHERS) === 0) return;
  try {
    await chmod(path, current & mode);
    tightened.push({ path, from: (current & 0o7777).toString(8) });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unknown';
    if (code === 'ENOENT') return;
    if (code !== 'EPERM' && code !== 'EACCES') throw error;
    refused.push({ path, code });
  }
}
