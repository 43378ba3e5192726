import { spawn } from 'node:child_process';

/**
 * Waits for its standard input to close (the service is gone: even `SIGKILL` closes it), then
 * detaches the disk (`$DISK`, may be empty), kills what is left in the cgroups (`$CGROUPS`, one a
 * line) and removes them, retrying for ~5 s while the browser's processes go. The folders come in
 * the environment, so that its command line names none of them.
 */
const WATCHDOG_SCRIPT = [
  'read _ignored',
  'if [ -n "$DISK" ]; then umount -l "$DISK" 2>/dev/null; fi',
  "IFS='\n'",
  'i=0',
  'while [ $i -lt 100 ]; do',
  '  left=0',
  '  for d in $CGROUPS; do',
  '    [ -d "$d" ] || continue',
  '    while read p; do kill -9 "$p" 2>/dev/null; done < "$d/cgroup.procs"',
  '    rmdir "$d" 2>/dev/null || left=1',
  '  done',
  '  [ $left = 0 ] && break',
  '  i=$((i+1)); sleep 0.05',
  'done',
].join('\n');

/**
 * Cleans up after a browser if the service dies without doing so itself: a tiny `sh`, in a session
 * of its own (terminal signals to the service's group do not reach it), that acts once the pipe
 * from the service closes. `cancel` (the service cleaned up) kills it. Returns null where nothing
 * needs watching.
 */
export function startCleanupWatchdog(
  diskDir: string | null,
  cgroupDirs: readonly string[],
): (() => void) | null {
  if (diskDir === null && cgroupDirs.length === 0) return null;
  const child = spawn('sh', ['-c', WATCHDOG_SCRIPT, 'browserdeck-cleanup'], {
    detached: true,
    stdio: ['pipe', 'ignore', 'ignore'],
    env: {
      PATH: '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
      DISK: diskDir ?? '',
      CGROUPS: cgroupDirs.join('\n'),
    },
  });
  child.on('error', () => {});
  child.stdin!.on('error', () => {});
  child.unref();
  (child.stdin as unknown as { unref?: () => void }).unref?.();
  return () => {
    try {
      child.kill('SIGKILL');
    } catch {
      // Already gone.
    }
  };
}
