import { loadavg } from 'node:os';
import type { RecordingKind, RecordingSide, SessionSample } from './recordingSample.ts';
import { median, percentile } from './stats.ts';

/** A median and a p90. */
export interface Spread {
  p50: number;
  p90: number;
  samples: number;
}

/** CPU seconds per minute of session (medians over the windows). */
export interface CpuPerMinute {
  server: number;
  browser: number;
  total: number;
  windows: number;
}

/** What the recorded sessions of one kind kept and cost to finish (medians over the sessions). */
export interface RecordedKind {
  sessions: number;
  recordedSec: number;
  /** Frames kept a second, and the mean frame, KiB. */
  framesPerSec: number;
  frameKiB: number;
  /** The replay's bytes (frames) and the MP4s per minute recorded, MiB. */
  framesMiBPerMin: number;
  mp4MiBPerMin: number;
  /** Release → READY, seconds, and per minute recorded. */
  readySec: number;
  readySecPerMin: number;
  /** The server process's CPU seconds from release to READY, per minute recorded. */
  serverCpuSecPerMin: number;
  width: number;
  height: number;
}

export interface RecordingFigures {
  create: Record<RecordingSide, Spread>;
  createToEvaluate: Record<RecordingSide, Spread>;
  /** After the create answered: connectOverCDP, the first page and its first evaluate. */
  connectToEvaluate: Record<RecordingSide, Spread>;
  pageLoad: Record<RecordingSide, Spread>;
  release: Record<RecordingSide, Spread>;
  /** on ÷ off at p50 (and p90 for create → first evaluate). */
  ratio: { createToEvaluateP50: number; createToEvaluateP90: number; pageLoadP50: number };
  cpu: Record<Exclude<RecordingKind, 'loads'>, Record<RecordingSide, CpuPerMinute>>;
  recorded: Record<RecordingKind, RecordedKind>;
  /** Sessions whose browser was not the warm one waiting before their create. */
  coldSessions: number;
  sessions: number;
  /** Lines of the server's log (LOG_LEVEL=warn) that name the recording. */
  warnings: string[];
  loads: { start: number; end: number };
  /** The browser's version, as the first session's browser gave it. */
  chromium: string;
}

const spread = (values: number[]): Spread => ({
  p50: median(values),
  p90: percentile(values, 90),
  samples: values.length,
});

/** The figures of a run from its sessions' samples. */
export function recordingFigures(
  samples: SessionSample[],
  context: { warnings: string[]; loadAtStart: number; chromium: string },
): RecordingFigures {
  const of = (side: RecordingSide) => samples.filter((s) => s.side === side);
  const bySide = (pick: (s: SessionSample[]) => number[]) =>
    ({ on: spread(pick(of('on'))), off: spread(pick(of('off'))) }) as Record<RecordingSide, Spread>;
  const createToEvaluate = bySide((s) => s.map((x) => x.totalMs));
  const pageLoad = bySide((s) => s.flatMap((x) => x.loadMs));
  const cpuOf = (kind: RecordingKind, side: RecordingSide): CpuPerMinute => {
    const windows = samples.flatMap((s) => (s.kind === kind && s.side === side && s.cpu ? [s.cpu] : []));
    // A window whose browser could not be told apart (NaN) counts for the server only.
    const perMinute = (pick: (c: (typeof windows)[number]) => number) =>
      median(windows.map((c) => (pick(c) * 60) / c.windowSec).filter(Number.isFinite));
    return {
      server: perMinute((c) => c.server),
      browser: perMinute((c) => c.browser),
      total: perMinute((c) => c.server + c.browser),
      windows: windows.length,
    };
  };
  const recordedOf = (kind: RecordingKind): RecordedKind => {
    const replays = samples.flatMap((s) => (s.kind === kind && s.replay ? [s.replay] : []));
    const m = (pick: (r: (typeof replays)[number]) => number) => median(replays.map(pick));
    const minutes = (r: (typeof replays)[number]) => r.recordedMs / 60_000;
    return {
      sessions: replays.length,
      recordedSec: m((r) => r.recordedMs / 1000),
      framesPerSec: m((r) => r.frames / (r.recordedMs / 1000)),
      frameKiB: m((r) => r.bytes / Math.max(1, r.frames) / 1024),
      framesMiBPerMin: m((r) => r.bytes / 2 ** 20 / minutes(r)),
      mp4MiBPerMin: m((r) => r.mp4Bytes / 2 ** 20 / minutes(r)),
      readySec: m((r) => r.readyMs / 1000),
      readySecPerMin: m((r) => r.readyMs / 1000 / minutes(r)),
      serverCpuSecPerMin: m((r) => r.serverCpu / minutes(r)),
      width: m((r) => r.width),
      height: m((r) => r.height),
    };
  };
  return {
    create: bySide((s) => s.map((x) => x.createMs)),
    createToEvaluate,
    connectToEvaluate: bySide((s) => s.map((x) => x.totalMs - x.createMs)),
    pageLoad,
    release: bySide((s) => s.map((x) => x.releaseMs)),
    ratio: {
      createToEvaluateP50: createToEvaluate.on.p50 / createToEvaluate.off.p50,
      createToEvaluateP90: createToEvaluate.on.p90 / createToEvaluate.off.p90,
      pageLoadP50: pageLoad.on.p50 / pageLoad.off.p50,
    },
    cpu: {
      static: { on: cpuOf('static', 'on'), off: cpuOf('static', 'off') },
      animated: { on: cpuOf('animated', 'on'), off: cpuOf('animated', 'off') },
    },
    recorded: { loads: recordedOf('loads'), static: recordedOf('static'), animated: recordedOf('animated') },
    coldSessions: samples.filter((s) => !s.warmHit).length,
    sessions: samples.length,
    warnings: context.warnings,
    loads: { start: context.loadAtStart, end: loadavg()[0]! },
    chromium: context.chromium,
  };
}
