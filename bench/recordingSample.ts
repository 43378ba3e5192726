/** What the recording benchmark (bench/recording.ts) measures per session, and its settings. */

export type RecordingSide = 'on' | 'off';
export type RecordingKind = 'loads' | 'static' | 'animated';
export const RECORDING_KINDS: readonly RecordingKind[] = ['loads', 'static', 'animated'];

/** The goal of issue 39: a page load with recording on at most 5 % slower (p50). */
export const RECORDING_PAGE_LOAD_TARGET = 0.05;

export interface RecordingBenchOptions {
  /** Rounds; each runs every kind of session once per side. */
  runs: number;
  /** Timed page loads per `loads` session (after one untimed). */
  loads: number;
  /** The CPU window of a `static` or `animated` session, seconds. */
  windowSec: number;
  /** The least pause before each create (then it waits for the warm browser). */
  pauseMs: number;
  log: (line: string) => void;
}

/** What one session measured. */
export interface SessionSample {
  side: RecordingSide;
  kind: RecordingKind;
  /** `POST …/sessions` answered, and create → first `page.evaluate('1')` answered, ms. */
  createMs: number;
  totalMs: number;
  /** The session's browser was the warm browser waiting before the create. */
  warmHit: boolean;
  /** Timed `page.goto` durations (`loads` only). */
  loadMs: number[];
  /** CPU seconds over the window (`static`, `animated`): the server process, the session's browser tree. */
  cpu: { server: number; browser: number; windowSec: number } | null;
  /** `POST …:release` answered, ms. */
  releaseMs: number;
  /** A recorded session's replay once READY. */
  replay: {
    /** Release sent → the replay READY, ms; and the server process's CPU seconds meanwhile. */
    readyMs: number;
    serverCpu: number;
    /** Σ over tabs of endTimeMs − startTimeMs. */
    recordedMs: number;
    bytes: number;
    frames: number;
    pages: number;
    mp4Bytes: number;
    width: number;
    height: number;
  } | null;
}
