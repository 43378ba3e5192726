import type { ConfinedLaunch, WrappedCommand } from './ConfinedLaunch.ts';
import type { ConfinementTools } from './ConfinementTools.ts';
import { STAGE_SCRIPT, STAGED_PROFILE, STAGED_READ_ONLY_PREFIX } from './stageScript.ts';

/**
 * The `namespaces` level, after staging: hides every listed folder under an empty file system,
 * gives the confined process an empty /tmp, and moves its folders back where they were (the
 * read-only ones read-only). Arguments: the tmpfs size option (`size=<bytes>,` or empty), the staged
 * ones (writable, read-only…, `--`), hidden folders…, `--`, the read-only folders again, `--`, the
 * command.
 */
const NAMESPACE_SCRIPT = [
  'tmpsize=$1; shift',
  ...STAGE_SCRIPT,
  'while [ "$1" != "--" ]; do',
  '  if [ -d "$1" ]; then mount -t tmpfs -o mode=0755,size=64k,nosuid,nodev browserdeck-hidden "$1"; fi',
  '  shift',
  'done',
  'shift',
  // Writable places the host's processes and other browsers share: each browser gets its own.
  'for d in /tmp /var/tmp /dev/shm; do',
  '  if [ -d "$d" ]; then mount -t tmpfs -o "$tmpsize"mode=1777,nosuid,nodev browserdeck-tmp "$d"; fi',
  'done',
  'i=0',
  'while [ "$1" != "--" ]; do',
  '  mkdir -p "$1"',
  `  mount --move ${STAGED_READ_ONLY_PREFIX}$i "$1"`,
  '  mount -o remount,bind,ro "$1"',
  '  i=$((i+1)); shift',
  'done',
  'shift',
  'mkdir -p "$profile"',
  `mount --move ${STAGED_PROFILE} "$profile"`,
  'cd "$profile"',
  'exec "$@"',
].join('\n');

/**
 * The `namespaces` level's command: `unshare` into fresh mount, pid, ipc and uts namespaces (and a
 * network namespace of its own when `launch.network === false`), where the staging script hides
 * `hidden` and gives the confined process its own temporary folders before it runs.
 */
export function namespacesCommand(input: {
  readonly launch: ConfinedLaunch;
  /** The real executable (links resolved). */
  readonly executable: string;
  /** The folders it sees read-only: the executable's own first. */
  readonly readOnlyDirs: readonly string[];
  readonly tools: ConfinementTools;
  /** Folders it must never see. */
  readonly hidden: readonly string[];
  /** The `setpriv` prefix to the confined user; empty when it runs as the service's user. */
  readonly switchUser: readonly string[];
  readonly env: Record<string, string>;
}): WrappedCommand {
  const { launch, readOnlyDirs } = input;
  const tmpfsBytes = launch.tmpfsBytes ?? null;
  const hide = [...input.hidden].sort((a, b) => a.length - b.length);
  return {
    command: input.tools.unshare!,
    args: [
      ...['--mount', '--propagation', 'private', '--pid', '--fork', '--kill-child', '--mount-proc'],
      ...['--ipc', '--uts', ...(launch.network === false ? ['--net'] : []), '--'],
      ...[
        'sh',
        '-c',
        NAMESPACE_SCRIPT,
        'browserdeck-confine',
        tmpfsBytes === null ? '' : `size=${tmpfsBytes},`,
        launch.profileDir,
        ...readOnlyDirs,
        '--',
        ...hide,
        '--',
        ...readOnlyDirs,
        '--',
      ],
      ...input.switchUser,
      input.executable,
      ...launch.args,
    ],
    env: input.env,
  };
}
