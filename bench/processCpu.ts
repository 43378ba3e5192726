import { readdirSync, readFileSync } from 'node:fs';

/** CPU time of processes from /proc (Linux): what a benchmark reads around a window. */

/** Clock ticks a second of /proc/<pid>/stat's times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** One process as /proc/<pid>/stat shows it. */
interface ProcStat {
  readonly ppid: number;
  /** utime + stime, in seconds: the process's own threads, not its children. */
  readonly cpuSeconds: number;
}

/** The fields after the command name, which may hold spaces and parentheses. */
function statFields(pid: number): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** User + system CPU seconds of process `pid` so far (its threads, not its children); NaN once gone. */
export function cpuSecondsOf(pid: number): number {
  const fields = statFields(pid);
  return fields ? (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND : Number.NaN;
}

/** Every process on the host: pid → parent and CPU seconds. */
function processTable(): Map<number, ProcStat> {
  const table = new Map<number, ProcStat>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const fields = statFields(Number(entry));
    if (fields)
      table.set(Number(entry), {
        ppid: Number(fields[1]),
        cpuSeconds: (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND,
      });
  }
  return table;
}

/** The pids of `root`'s whole tree (itself included) in `table`. */
function treeOf(root: number, table: Map<number, ProcStat>): number[] {
  const children = new Map<number, number[]>();
  for (const [pid, { ppid }] of table) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  const tree: number[] = [];
  for (const queue = [root]; queue.length > 0; ) {
    const pid = queue.shift()!;
    if (!table.has(pid)) continue;
    tree.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return tree;
}

/** User + system CPU seconds so far of `root` and every live process below it. */
export function treeCpuSeconds(root: number): number {
  const table = processTable();
  return treeOf(root, table).reduce((sum, pid) => sum + (table.get(pid)?.cpuSeconds ?? 0), 0);
}

/**
 * The Chromium browser processes below `root`: those whose program is Chromium and that have no
 * `--type=` (a renderer, zygote, GPU or utility process has one). A wrapper (bwrap, a shell) is not one.
 */
export function chromiumBrowsersBelow(root: number): number[] {
  const table = processTable();
  return treeOf(root, table).filter((pid) => {
    if (pid === root) return false;
    try {
      // Chromium rewrites its command line (setproctitle): the arguments may be joined by spaces.
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      const program = cmdline.split(/[\0 ]/)[0]?.split('/').pop() ?? '';
      return /chrom/i.test(program) && !cmdline.includes('--type=');
    } catch {
      return false;
    }
  });
}

/** Whether the browser process `pid` has a renderer below it (a page to hand out). */
export function hasRenderer(pid: number): boolean {
  const table = processTable();
  return treeOf(pid, table).some((child) => {
    try {
      return readFileSync(`/proc/${child}/cmdline`, 'utf8').includes('--type=renderer');
    } catch {
      return false;
    }
  });
}
