import { spawn } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';

/**
 * One Java process of a test Grid (standalone, hub or node), in a process group of its own with the
 * ChromeDrivers and browsers it starts, so stopping the group stops them all.
 */
export interface GridProcess {
  /** What it is, for messages: `standalone`, `hub`, `node 1`, … */
  readonly name: string;
  /** The Java process's pid, also its process group's id. */
  readonly pid: number;
  /** Settles with the exit code (null after a signal) when the Java process ends. */
  readonly exited: Promise<number | null>;
  /** True once the Java process has ended. */
  hasExited(): boolean;
  /** The last `count` lines it printed (stdout and stderr). */
  logTail(count?: number): string;
  /**
   * SIGTERM to the whole group, SIGKILL to what is left once Java has ended or after `graceMs`;
   * resolves when no process of the group runs any more (or 5 s after the SIGKILL).
   */
  stop(graceMs?: number): Promise<void>;
}

/**
 * Runs `command args` (the Java process) behind a small `sh` watchdog that holds the read end of a
 * pipe from this Node process: when Node ends in any way (a crash, SIGKILL), the pipe closes and the
 * watchdog stops the whole group (SIGTERM, SIGKILL 5 s later), so no Java or browser outlives a test
 * run. The shell `exec`s Java, which keeps the pid and the group.
 */
const WATCHDOG = [
  'exec 3<&0',
  "( trap '' TERM; cat <&3 >/dev/null; kill -TERM 0; sleep 5; kill -KILL 0 ) </dev/null >/dev/null 2>&1 &",
  'exec 3<&-',
  'exec "$@" </dev/null',
].join('\n');

const LINES_KEPT = 200;
/** Process groups still running, stopped on this process's normal exit if nobody closed them. */
const running = new Set<number>();
let exitHookInstalled = false;

/** Starts `command args` as a `GridProcess` named `name` (see `GridProcess`). */
export function spawnGridProcess(
  name: string,
  command: string,
  args: readonly string[],
  options: { readonly env: NodeJS.ProcessEnv; readonly cwd: string },
): GridProcess {
  installExitHook();
  const child = spawn('sh', ['-c', WATCHDOG, 'sh', command, ...args], {
    cwd: options.cwd,
    env: options.env,
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error(`could not start the Selenium ${name} (${command})`);
  running.add(pid);
  const lines: string[] = [];
  let partial = '';
  const collect = (chunk: Buffer) => {
    const parts = (partial + chunk.toString('utf8')).split('\n');
    partial = parts.pop() ?? '';
    lines.push(...parts);
    if (lines.length > LINES_KEPT) lines.splice(0, lines.length - LINES_KEPT);
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  let ended = false;
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      ended = true;
      resolve(code);
    }),
  );
  // Nothing here keeps the test process alive: a forgotten Grid is stopped by the exit hook or the watchdog.
  child.unref();
  for (const stream of [child.stdin, child.stdout, child.stderr])
    (stream as { unref?: () => void }).unref?.();
  child.stdin.on('error', () => {});

  return {
    name,
    pid,
    exited,
    hasExited: () => ended,
    logTail: (count = 30) => [...lines, partial].filter(Boolean).slice(-count).join('\n'),
    stop: async (graceMs = 5_000) => {
      child.ref(); // the awaits below keep a plain script alive until the group is gone
      signalGroup(pid, 'SIGTERM');
      if (!ended) {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([exited, new Promise((resolve) => (timer = setTimeout(resolve, graceMs)))]);
        clearTimeout(timer);
      }
      signalGroup(pid, 'SIGKILL');
      child.stdin.destroy();
      running.delete(pid);
      await exited;
      const deadline = Date.now() + 5_000;
      while ((await groupMembers(pid)) > 0 && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 50));
    },
  };
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // the group is gone already
  }
}

/** How many processes of group `pgid` still run (zombies do not count), from /proc. */
async function groupMembers(pgid: number): Promise<number> {
  let count = 0;
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    // After the command name (which may hold spaces and parentheses): state, ppid, pgrp, …
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(pgrp) === pgid && state !== 'Z' && state !== 'X') count++;
  }
  return count;
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const pgid of running) signalGroup(pgid, 'SIGKILL');
  });
}
