import { execFile } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The account local browsers run as. */
export interface BrowserUser {
  readonly name: string;
  readonly uid: number;
  readonly gid: number;
}

/** The account the service creates for its browsers when it starts as root and none is named. */
export const DEFAULT_BROWSER_USER = 'browserdeck-browser';

/**
 * The unprivileged account browsers run as: `name` when given (it must exist and not be root),
 * else `browserdeck-browser`, created as a system account without a home or login shell when it
 * does not exist yet (the service runs as root).
 */
export async function resolveBrowserUser(
  name: string | undefined,
  defaultName: string = DEFAULT_BROWSER_USER,
): Promise<BrowserUser> {
  const wanted = name ?? defaultName;
  let user = await lookUp(wanted);
  if (!user && name === undefined) {
    try {
      // useradd checks for the name before it locks the account files, so two at once can both
      // create it: check and create under a lock file shared by every process (util-linux flock).
      await run('flock', [
        join(tmpdir(), 'browserdeck-useradd.lock'),
        'sh',
        '-c',
        'id -u "$1" >/dev/null 2>&1 || useradd --system --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin --user-group "$1"',
        'browserdeck-useradd',
        wanted,
      ]);
    } catch (error) {
      throw new Error(
        `could not create the browser user ${wanted} with useradd: ${(error as Error).message}`,
      );
    }
    user = await lookUp(wanted);
  }
  if (!user) throw new Error(`BROWSER_USER ${wanted} does not exist`);
  if (user.uid === 0 || user.gid === 0)
    throw new Error(`BROWSER_USER ${wanted} is root: browsers never run as root`);
  return user;
}

async function lookUp(name: string): Promise<BrowserUser | null> {
  if (!/^[a-z_][a-z0-9_-]*\$?$/i.test(name) && !/^\d+$/.test(name))
    throw new Error(`BROWSER_USER ${name} is not a user name`);
  try {
    const uid = Number((await run('id', ['-u', name])).stdout.trim());
    const gid = Number((await run('id', ['-g', name])).stdout.trim());
    const resolved = (await run('id', ['-un', name])).stdout.trim();
    return Number.isInteger(uid) && Number.isInteger(gid) ? { name: resolved, uid, gid } : null;
  } catch {
    return null;
  }
}
