import type { BrowserUser } from './browserUser.ts';
import { findOnPath } from './findOnPath.ts';

/** The tools' absolute paths; null where not installed (a level that needs one is refused at set-up). */
export interface ConfinementTools {
  readonly setpriv: string | null;
  readonly bwrap: string | null;
  readonly unshare: string | null;
}

/** No tools: the `off` level needs none. */
export const NO_CONFINEMENT_TOOLS: ConfinementTools = { setpriv: null, bwrap: null, unshare: null };

/** Finds the tools once on the service's PATH (browsers get a minimal one). */
export async function findConfinementTools(): Promise<ConfinementTools> {
  return {
    setpriv: await findOnPath('setpriv', process.env.PATH),
    bwrap: await findOnPath('bwrap', process.env.PATH),
    unshare: await findOnPath('unshare', process.env.PATH),
  };
}

/** `setpriv` to the browser's user: its own uid and gid, no supplementary groups. */
export function switchToUser(tools: ConfinementTools, user: BrowserUser): string[] {
  return [tools.setpriv!, `--reuid=${user.uid}`, `--regid=${user.gid}`, '--clear-groups', '--'];
}
