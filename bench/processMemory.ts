import { readFileSync } from 'node:fs';
import { processTreePids } from '@browserdeck/testing/local-chromium';

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

/** Memory of every live descendant of `root` (`processTreePids` less `root` itself). */
export async function descendantMemory(root: number): Promise<ProcessMemory[]> {
  const descendants = (await processTreePids(root)).filter((pid) => pid !== root);
  return descendants.flatMap((pid) => {
    const memory = pssOf(pid);
    return memory ? [{ pid, kind: kindOf(pid), ...memory }] : [];
  });
}
