import { readdir, readFile, readlink } from 'node:fs/promises';

/** One process of a browser's tree, as /proc shows it to root. */
export interface ProcessInfo {
  readonly pid: number;
  readonly uid: number;
  readonly seccomp: number;
  readonly cmdline: string;
  readonly environ: string;
}

/** `root` and the pids of every process below it (its whole tree), from the ppid field of /proc/<pid>/stat. */
export async function processTreePids(root: number): Promise<number[]> {
  const parents = new Map<number, number>();
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    // The command name may hold spaces and parentheses: the fields after the last ')' are state, ppid, …
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (Number.isInteger(ppid)) parents.set(Number(entry), ppid);
  }
  const tree = new Set([root]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, ppid] of parents)
      if (tree.has(ppid) && !tree.has(pid)) {
        tree.add(pid);
        grew = true;
      }
  }
  return [...tree];
}

/** `root` and every process below it (its whole tree), read from /proc. */
export async function processTree(root: number): Promise<ProcessInfo[]> {
  const tree = await processTreePids(root);
  const infos: ProcessInfo[] = [];
  for (const pid of tree) {
    const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => null);
    if (status === null) continue;
    const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? -1);
    infos.push({
      pid,
      uid: field('Uid'),
      seccomp: field('Seccomp'),
      cmdline: (await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')).replaceAll('\0', ' '),
      environ: (await readFile(`/proc/${pid}/environ`, 'utf8').catch(() => '')).replaceAll('\0', '\n'),
    });
  }
  return infos;
}

/** Listening TCP sockets (IPv4 and IPv6) held open by any of `pids`. */
export async function listeningSocketsOf(pids: readonly number[]): Promise<string[]> {
  const listening = new Map<string, string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    const lines = (await readFile(table, 'utf8').catch(() => '')).split('\n').slice(1);
    for (const line of lines) {
      const cols = line.trim().split(/\s+/);
      if (cols[3] === '0A') listening.set(cols[9]!, `${table} ${cols[1]}`);
    }
  }
  const found: string[] = [];
  for (const pid of pids) {
    const fds = await readdir(`/proc/${pid}/fd`).catch(() => []);
    for (const fd of fds) {
      const target = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '');
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
      if (inode && listening.has(inode)) found.push(`pid ${pid}: ${listening.get(inode)}`);
    }
  }
  return found;
}
