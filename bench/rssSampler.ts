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

/** Resident memory of a process in MiB: the total, and its anonymous (heap, native) and file-backed parts. */
export interface RssSample {
  rss: number;
  anon: number;
  file: number;
}

/** `VmRSS`, `RssAnon` and `RssFile` of process `pid`, in MiB. */
export function rssSample(pid: number): RssSample {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) =>
    Number(new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, 'm').exec(status)?.[1] ?? Number.NaN);
  return { rss: kb('VmRSS') / 1024, anon: kb('RssAnon') / 1024, file: kb('RssFile') / 1024 };
}

/** Samples `rssSample(pid)` every `everyMs` until stopped; `stop()` returns the samples, oldest first. */
export function sampleRss(pid: number, everyMs = 1000): { stop(): RssSample[] } {
  const samples: RssSample[] = [];
  const timer = setInterval(() => {
    try {
      samples.push(rssSample(pid));
    } catch {}
  }, everyMs);
  return {
    stop() {
      clearInterval(timer);
      return samples;
    },
  };
}
