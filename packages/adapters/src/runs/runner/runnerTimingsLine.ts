import type { RunTimings } from './ConfinedScriptRunnerOptions.ts';

/** A run's timings as its `system` log line tells them: whole milliseconds, null where it never got there. */
export type RunTimingsOfLine = Omit<RunTimings, 'runId'>;

const PREFIX = 'runner timings (ms):';
const ms = (value: number | null) => (value === null ? '–' : String(Math.round(value)));

/**
 * The `system` log line that ends a run's runner output, so a run's own logs say where its time
 * went: `runner timings (ms): wait 1, spawn 312 (warm), connect 21, script 43, total 96`. A warm
 * process was spawned ahead of the run, so its spawn was not the run's to wait for.
 */
export function runnerTimingsLine(timings: RunTimingsOfLine): string {
  const { warm, waitMs, spawnMs, connectMs, scriptMs, totalMs } = timings;
  return `${PREFIX} wait ${ms(waitMs)}, spawn ${ms(spawnMs)} (${warm ? 'warm' : 'cold'}), connect ${ms(connectMs)}, script ${ms(scriptMs)}, total ${ms(totalMs)}`;
}

const LINE =
  /^runner timings \(ms\): wait (\d+), spawn (\d+) \((warm|cold)\), connect (\d+|–), script (\d+|–), total (\d+)$/;

/** The timings a `runnerTimingsLine` tells; null for any other line. */
export function parseRunnerTimingsLine(line: string): RunTimingsOfLine | null {
  const match = LINE.exec(line);
  if (!match) return null;
  const [, wait, spawn, kind, connect, script, total] = match as unknown as string[];
  const orNull = (value: string | undefined) => (value === '–' ? null : Number(value));
  return {
    warm: kind === 'warm',
    waitMs: Number(wait),
    spawnMs: Number(spawn),
    connectMs: orNull(connect),
    scriptMs: orNull(script),
    totalMs: Number(total),
  };
}
