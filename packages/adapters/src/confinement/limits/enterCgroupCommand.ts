import type { WrappedCommand } from '../isolation/ConfinedLaunch.ts';

/**
 * Writes its own pid into each `cgroup.procs` file named before `--`, then becomes the command
 * after it. A write that fails stops the launch (exit 125) rather than run the browser unlimited.
 */
const ENTER_SCRIPT = [
  'while [ "$1" != "--" ]; do',
  '  echo $$ > "$1" || exit 125',
  '  shift',
  'done',
  'shift',
  'exec "$@"',
].join('\n');

/**
 * `command`, started inside a browser's cgroup: a tiny `sh` moves itself in, then execs the
 * confinement (and so Chromium) in its place. The move happens before anything of the browser runs,
 * so every process it ever forks starts inside the cgroup: no window in which a fork escapes, as
 * moving the pid after `spawn` would leave. The pid stays the same, so the spawned child is still
 * the leader of the browser's process group. Without `procsFiles` the command is unchanged.
 */
export function enterCgroupCommand(command: WrappedCommand, procsFiles: readonly string[]): WrappedCommand {
  if (procsFiles.length === 0) return command;
  return {
    command: 'sh',
    args: ['-c', ENTER_SCRIPT, 'browserdeck-cgroup', ...procsFiles, '--', command.command, ...command.args],
    env: command.env,
  };
}
