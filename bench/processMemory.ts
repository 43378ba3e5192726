import { readdirSync, readFileSync } from 'node:fs';

/** Memory of one process from `/proc/<pid>/smaps_rollup`, in MiB (Linux only). */
export interface ProcessMemory {
  pid: number;
  /** What the process is: `renderer`, `zygote`, `gpu-process`, `utility`, `browser`, or its command name. */
  kind: string;
  /** Proportional set size: private pages plus each shared page divided by the processes mapping it. */
  pss: number;
  /** Private_Clean + Private_Dirty: what would be freed if the process ended (its USS). */
  uss: number;
}

/** `Pss` and private pages of process `pid`, in MiB; null when it has gone or cannot be read. */
export function pssOf(pid: number): { pss: number; uss: number } | null {
  let rollup: string;
  try {
    rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
  } catch {
    return null;
  }
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, 'm').exec(rollup)?.[1] ?? 0);
  return { pss: kb('Pss') / 1024, uss: (kb('Private_Clean') + kb('Private_Dirty')) / 1024 };
}

/** Every live descendant of `root` (children, their children, …), from the ppid field of `/proc/*\/stat`. */
export function descendantsOf(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    // The command name may hold spaces and parentheses: fields after the last ')' are state, ppid, …
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    const list = children.get(ppid) ?? [];
    list.push(Number(entry));
    children.set(ppid, list);
  }
  const out: number[] = [];
  const queue = [...(children.get(root) ?? [])];
  while (queue.length) {
    const pid = queue.shift()!;
    out.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return out;
}

/** A Chromium process's `--type=` (`browser` without one), a shell, else the command name. */
function kindOf(pid: number): string {
  try {
    // Chromium rewrites its command line (setproctitle): the arguments may be joined by spaces.
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    const comm = readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
    const type = /--type=([\w-]+)/.exec(cmdline)?.[1];
    if (type) return type;
    const program = cmdline.split(/[\0 ]/)[0]?.split('/').pop() ?? '';
    // Debian's `/usr/bin/chromium` is a shell script around the binary: name a shell as such.
    if (/^(ba|da)?sh$/.test(program)) return `${program} (shell)`;
    return /chrom/i.test(program) ? 'browser' : comm;
  } catch {
    return 'gone';
  }
}

/** Memory of every live descendant of `root`. */
export function descendantMemory(root: number): ProcessMemory[] {
  return descendantsOf(root).flatMap((pid) => {
    const memory = pssOf(pid);
    return memory ? [{ pid, kind: kindOf(pid), ...memory }] : [];
  });
}
