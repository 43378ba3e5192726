/**
 * When a part stops at `close()`, in the order the phases run. A closed list: a new part takes one
 * of these, so its place at shutdown is declared, not explained in comments.
 *
 * - `drain`: stop taking work and let go of what uses the browsers: the run worker (its runs end
 *   and release their sessions), the periodic sweeps, this instance's membership (the others stop
 *   routing to it), the run change feed, the script runner's processes (their runs are over), the
 *   forwarder to other instances and the live-view hub (viewers are told the end first).
 * - `end-sessions`: the provider ends every session it runs (clients hear close code 1001) while
 *   one last reconcile pass stores them ended at that moment; then its own background work stops.
 * - `flush`: buffered counts are written, the ended sessions' last ones included (proxy bytes).
 * - `release`: what the process holds is freed: the instance id's data-folder slot, the run queue.
 * - `storage`: the database, last, once nothing else writes to it.
 */
export const PART_PHASES = ['drain', 'end-sessions', 'flush', 'release', 'storage'] as const;

/** One of `PART_PHASES`. */
export type PartPhase = (typeof PART_PHASES)[number];

/**
 * Something the composition opened, as its lifecycle runs it: `start` with the background work
 * (`Browserdeck.start()`), `stop` at `close()` in its `phase`. What must happen before anything is
 * served (a provider's start, joining the instances) is done by the `open*` function that returns it.
 */
export interface Part {
  /** Names it in the part list and in a stop failure. */
  readonly name: string;
  readonly phase: PartPhase;
  /** Starts its background work, without waiting for it: work that fails later reports it itself. */
  start?(): void;
  /** Stops it and frees what it holds; waits for work under way. */
  stop(): Promise<void>;
}
