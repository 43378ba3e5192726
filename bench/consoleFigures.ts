/** What the console benchmark (bench/console.ts) measures, and its targets. */

/** Time to the first rendered list, p50 from navigation (issue 17). */
export const CONSOLE_FIRST_LIST_TARGET_MS = 500;

/** p50 and p95 of a list of milliseconds. */
export interface Spread {
  p50: number;
  p95: number;
}

/** One side's page loads: milestones in ms from navigation start. */
export interface LoadFigures {
  loads: number;
  firstRow: Spread;
  /** The page's HTML received (navigation `responseEnd`). */
  html: Spread;
  /** The app's script received (its resource entry's `responseEnd`). */
  script: Spread;
  /** `DOMContentLoaded` handlers done: the (deferred) module script has run. */
  domContentLoaded: Spread;
  /**
   * The console's API requests, in the order they start (p50): what each asks for (ids as `{id}`),
   * when it is sent and when its answer has arrived.
   */
  requests: Array<{ request: string; sent: Spread; answered: Spread }>;
  /** Bytes over the wire for JavaScript and CSS per load (resource `transferSize`, headers included). */
  assetBytes: number;
}

/** A run's figures: the build's sizes, and the page loads with and without the browser's cache. */
export interface ConsoleFigures {
  size: {
    /** The console's own budget for all of it, gzipped (issue 17), as `npm run size` states it. */
    budgetBytes: number;
    totalGzip: number;
    firstScreenGzip: number;
    files: Array<{ file: string; raw: number; gzip: number; firstScreen: boolean }>;
  };
  cached: LoadFigures;
  uncached: LoadFigures;
  sessions: number;
}
