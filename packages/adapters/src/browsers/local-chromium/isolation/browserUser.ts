import { execFile } from 'node:child_process';
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
export async function resolveBrowserUser(name: string | undefined): Promise<BrowserUser> {
  const wanted = name ?? DEFAULT_BROWSER_USER;
  let user = await lookUp(wanted);
  if (!user && name === undefined) {
    try {
      await run('useradd', [
        '--system',
        '--no-create-home',
        '--home-dir',
        '/nonexistent',
        '--shell',
        '/usr/sbin/nologin',
        '--user-group',
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
