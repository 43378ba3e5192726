import type { ConfinedLaunch, WrappedCommand } from './ConfinedLaunch.ts';
import type { ConfinementTools } from './ConfinementTools.ts';
import { STAGE_SCRIPT, STAGED_PROFILE, stagedReadOnlyDir } from './stageScript.ts';

/** The `bubblewrap` level run as root: stage the folders, then hand over to bwrap as the confined user. */
const BUBBLEWRAP_STAGE_SCRIPT = [...STAGE_SCRIPT, 'exec "$@"'].join('\n');

/**
 * The `bubblewrap` level's command: bwrap with a view of the system folders (read-only), the
 * executable's folder and any other read-only folders, and its writable folder (a browser's
 * profile, a run's folder). As root (`staged`) the folders are first staged in a mount namespace
 * where the confined user, who runs bwrap, can reach them. `launch.network === false` adds a
 * network namespace of its own.
 */
export function bubblewrapCommand(input: {
  readonly launch: ConfinedLaunch;
  /** The real executable (links resolved). */
  readonly executable: string;
  /** The folders it sees read-only: the executable's own first. */
  readonly readOnlyDirs: readonly string[];
  readonly tools: ConfinementTools;
  /** bubblewrap's read-only view of the system folders (`systemBinds`). */
  readonly binds: readonly string[];
  /** The `setpriv` prefix to the confined user; empty when it runs as the service's user. */
  readonly switchUser: readonly string[];
  /** True as root: the folders are staged where the confined user can reach them. */
  readonly staged: boolean;
  readonly env: Record<string, string>;
}): WrappedCommand {
  const { launch, executable, readOnlyDirs, tools, env } = input;
  const tmpfsBytes = launch.tmpfsBytes ?? null;
  const sized = (path: string) => [
    ...(tmpfsBytes === null ? [] : ['--size', String(tmpfsBytes)]),
    '--tmpfs',
    path,
  ];
  const { staged } = input;
  const view = [
    ...input.binds,
    ...['--proc', '/proc', '--dev', '/dev', ...sized('/tmp'), ...sized('/dev/shm')],
    ...readOnlyDirs.flatMap((dir, i) => ['--ro-bind', staged ? stagedReadOnlyDir(i) : dir, dir]),
    ...[
      '--bind',
      staged ? STAGED_PROFILE : launch.profileDir,
      launch.profileDir,
      '--chdir',
      launch.profileDir,
    ],
    ...['--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try'],
    ...(launch.network === false ? ['--unshare-net'] : []),
    ...['--die-with-parent', '--new-session'],
  ];
  const bwrap = [...input.switchUser, tools.bwrap!, ...view, '--', executable, ...launch.args];
  if (!staged) return { command: bwrap[0]!, args: bwrap.slice(1), env };
  return {
    command: tools.unshare!,
    args: [
      ...['--mount', '--propagation', 'private', '--'],
      ...['sh', '-c', BUBBLEWRAP_STAGE_SCRIPT, 'browserdeck-stage', launch.profileDir, ...readOnlyDirs, '--'],
      ...bwrap,
    ],
    env,
  };
}
