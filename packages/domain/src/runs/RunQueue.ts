/** A run as a queue holds it: its id, and the account whose fair share it counts against. */
export interface RunTicket {
  readonly runId: string;
  readonly ownerId: string;
}

/**
 * Hands runs to workers: PostgreSQL (pg-boss, shared by every instance) or an in-process queue over
 * the runs table (SQLite, one instance). A job carries only the run's id and its account; the run
 * itself (script, encrypted env) stays in the run repository. Workers take runs fairly across
 * accounts: at most a share of them each at once, the next from the account that has waited longest.
 */
export interface RunQueue {
  /** Queues the run for a worker, no earlier than `delayMs` from now (a back-off) when given. */
  enqueue(ticket: RunTicket, options?: { delayMs?: number }): Promise<void>;
  /**
   * Tells a worker of this instance executing `runId`, if any, to stop it now (a cancel). Workers of
   * other instances notice at their next heartbeat.
   */
  interrupt(runId: string): void;
  /** Runs waiting for a worker (queued, delayed included), for metrics. */
  depth(): Promise<number>;
}
