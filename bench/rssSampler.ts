import { readFileSync } from 'node:fs';

/** Resident set size of process `pid` in MiB (`VmRSS` of `/proc/<pid>/status`; Linux only). */
export function rssMiB(pid: number): number {
  const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`no VmRSS for process ${pid}`);
  return Number(match[1]) / 1024;
}

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
