/**
 * Hands runs to workers: PostgreSQL (pg-boss, shared by every instance) or an in-process queue over
 * the runs table (SQLite, one instance). A job carries only the run's id; the run itself (script,
 * encrypted env) stays in the run repository.
 */
export interface RunQueue {
  /** Queues `runId` for a worker, no earlier than `delayMs` from now (a back-off) when given. */
  enqueue(runId: string, options?: { delayMs?: number }): Promise<void>;
  /**
   * Tells a worker of this instance executing `runId`, if any, to stop it now (a cancel). Workers of
   * other instances notice at their next heartbeat.
   */
  interrupt(runId: string): void;
  /** Runs waiting for a worker (queued, delayed included), for metrics. */
  depth(): Promise<number>;
}
