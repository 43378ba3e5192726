import { readFileSync } from 'node:fs';

/** Resident set size of process `pid` in MiB (`VmRSS` of `/proc/<pid>/status`; Linux only). */
export function rssMiB(pid: number): number {
  const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`no VmRSS for process ${pid}`);
  return Number(match[1]) / 1024;
}

/** CPU time (user + system) process `pid` has used so far, in seconds (`/proc/<pid>/stat`). */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces) start at state; utime, stime are 14th, 15th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

/** `getconf CLK_TCK`: 100 on every Linux we run on. */
const CLOCK_TICKS = 100;

/** Samples `rssMiB(pid)` every `everyMs` until stopped; `stop()` returns the samples, oldest first. */
export function sampleRss(pid: number, everyMs = 1000): { stop(): number[] } {
  const samples: number[] = [];
  const timer = setInterval(() => {
    try {
      samples.push(rssMiB(pid));
    } catch {}
  }, everyMs);
  return {
    stop() {
      clearInterval(timer);
      return samples;
    },
  };
}
