import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { BrowserUser } from './browserUser.ts';
import { type ConfinementTools, switchToUser } from './ConfinementTools.ts';
import type { IsolationLevel } from './IsolationLevel.ts';

const run = promisify(execFile);

/** Null when `level` works on this host (tried for real, as the browser's user); else what is missing. */
export async function probeIsolationLevel(
  level: IsolationLevel,
  isRoot: boolean,
  user: BrowserUser | null,
  tools: ConfinementTools,
  binds: readonly string[],
): Promise<string | null> {
  const prefix = user ? switchToUser(tools, user) : [];
  if (level === 'bubblewrap') {
    if (!tools.bwrap) return 'bubblewrap (bwrap) is not installed';
    // As root the browser's folders are staged in a mount namespace first (see `bubblewrapCommand`).
    if (user && !tools.unshare)
      return "unshare (util-linux) is not installed, to stage the browser's folders";
    const check = [...prefix, tools.bwrap, ...binds, '--unshare-pid', '--die-with-parent', '--', 'true'];
    return (await succeeds(check))
      ? null
      : 'bubblewrap cannot create namespaces for the browser user (are unprivileged user namespaces disabled?)';
  }
  if (level === 'namespaces') {
    if (!isRoot) return 'the namespaces level needs the service to run as root';
    if (!tools.unshare) return 'unshare (util-linux) is not installed';
    return (await succeeds([
      tools.unshare,
      '--mount',
      '--pid',
      '--fork',
      '--mount-proc',
      '--ipc',
      '--uts',
      '--',
      'true',
    ]))
      ? null
      : 'unshare cannot create a mount namespace here';
  }
  return null;
}

async function succeeds(command: string[]): Promise<boolean> {
  try {
    await run(command[0]!, command.slice(1), { timeout: 10_000 });
    return true;
  } catch {
    return false;
  }
}
