import type { RunQueue, RunTicket } from '@browserdeck/domain';

/** What takes runs from a queue: a worker. */
export interface RunQueueConsumer {
  /** Executes one run; resolves once it is over, whatever its outcome. */
  run(ticket: RunTicket): Promise<void>;
  /** Stops `runId` now if this consumer is executing it (a cancel on this instance). */
  interrupt(runId: string): void;
}

/**
 * A run queue with its worker side: the domain's `RunQueue` (enqueue, interrupt, depth) for the use
 * cases, plus what a worker starts and stops. `interrupt` reaches the consumer that `start` was given.
 */
export interface RunWorkQueue extends RunQueue {
  /** Starts handing queued runs to `consumer`, at most `concurrency` at once on this instance. */
  start(consumer: RunQueueConsumer, options: { concurrency: number }): Promise<void>;
  /** Stops handing out runs; those being executed go on. Idempotent. */
  stopTaking(): Promise<void>;
  /** Releases what the queue holds (timers, connections): after `stopTaking` and the last run. */
  close(): Promise<void>;
}
