import { readdirSync, readFileSync } from 'node:fs';

/** The host's processes as /proc shows them, to check what a run or a server leaves behind. */

/** Every process below `pid` (from /proc's parent links), still running: pid → command line. */
export function descendantsOf(pid: number): Map<number, string> {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  const found = new Map<number, string>();
  const queue = [pid];
  while (queue.length > 0) {
    for (const child of children.get(queue.shift() as number) ?? []) {
      queue.push(child);
      try {
        if (isRunning(child))
          found.set(child, readFileSync(`/proc/${child}/cmdline`, 'utf8').replaceAll('\0', ' '));
      } catch {
        // gone meanwhile
      }
    }
  }
  return found;
}

/** Running: not gone, and not a zombie waiting for its parent. */
export function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}
