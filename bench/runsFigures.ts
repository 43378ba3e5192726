/** The `runs` scenario's figures, targets and constants (bench/runs.ts measures, bench/runsMarkdown.ts tells). */
import type { RunTimingsOfLine } from '@browserdeck/adapters/runs';
import { median, percentile } from './stats.ts';

/** The targets of issue 25 §9. */
export const RUNS_TARGETS = { p50Ms: 250, overFloorP50: 2, spawnP50Ms: 80 };

/** Timed runs per block; the three sides' blocks alternate, their order turning each round. */
export const RUNS_BLOCK = 5;
export const RUNS_CLIENTS = 4;
export const RUNS_TITLE = 'Runs bench';
export const RUNS_PAGE = `data:text/html,<title>${RUNS_TITLE}</title>`;
export const RUNS_SCRIPT = `await page.goto(${JSON.stringify(RUNS_PAGE)});\nreturn await page.title();`;

export type RunsSide = 'endToEnd' | 'floor' | 'inProcess';

/** One end-to-end run, split by what the run and its logs record (ms). */
export interface EndToEnd {
  roundTrip: number;
  /** createdAt → startedAt. */
  queue: number;
  /** startedAt → the "session … ready" line. */
  session: number;
  /** The ready line → the runner's timings line (its process spawned or taken, run, gone). */
  process: number;
  /** The timings line → the "session … released" line. */
  release: number;
  /** The released line → endedAt (the last log lines stored, the run ended). */
  finish: number;
  /** The round trip less createdAt → endedAt: the request, its answer and the wait's wake-up. */
  http: number;
  runner: RunTimingsOfLine | null;
}

/** A run by hand (ms): the floor's phases as the child measured them, the total as the bench did. */
export interface ByHand {
  total: number;
  boot: number;
  import: number;
  connect: number;
  script: number;
  disconnect: number;
}

export interface Quantiles {
  p50: number;
  p95: number;
}
export const quantiles = (values: number[]): Quantiles => ({
  p50: median(values),
  p95: percentile(values, 95),
});

export interface SustainedFigures {
  /** Until the last run came back (the clients stop posting at BENCH_RUNS_SUSTAIN_SEC). */
  seconds: number;
  runs: number;
  runsPerSec: number;
  roundTrip: Quantiles;
  queue: Quantiles;
  session: Quantiles;
  process: Quantiles;
  release: Quantiles;
  warmRunners: number;
  failures: string[];
}

export interface RunsFigures {
  chromium: { path: string; source: string; version: string; server: string | null };
  isolation: { browsers: string; runner: string };
  endToEnd: EndToEnd[];
  floor: ByHand[];
  inProcess: ByHand[];
  /** `browserdeck_run_spawn_seconds` over the timed phase: mean and the share within 75 ms. */
  spawnMetric: { count: number; meanMs: number; within75ms: number } | null;
  sustained: SustainedFigures;
  loads: { start: number; afterTiming: number; end: number };
}

export interface RunsOptions {
  /** Timed runs per side, after WARM_UP untimed ones. */
  runs: number;
  sustainSec: number;
  /** Untimed pause before each timed end-to-end run, for the warm pools to refill (0: back to back). */
  pauseMs: number;
  log: (line: string) => void;
}

/** The figures the targets and the report judge by, from the raw runs. */
export function runsHeadline(f: RunsFigures) {
  const endToEnd = quantiles(f.endToEnd.map((r) => r.roundTrip));
  const floor = quantiles(f.floor.map((r) => r.total));
  const inProcess = quantiles(f.inProcess.map((r) => r.total));
  const runner = f.endToEnd.map((r) => r.runner).filter((r) => r !== null);
  return {
    endToEnd,
    floor,
    inProcess,
    ratio: endToEnd.p50 / floor.p50,
    spawn: quantiles(runner.map((r) => r.spawnMs)),
    wait: quantiles(runner.map((r) => r.waitMs)),
    warm: runner.filter((r) => r.warm).length,
    withTimings: runner.length,
  };
}
