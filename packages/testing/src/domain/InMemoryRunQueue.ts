import type { RunQueue, RunTicket } from '@browserdeck/domain';

/** One `enqueue` the queue received. */
export interface EnqueuedRun {
  readonly runId: string;
  readonly ownerId: string;
  /** The back-off asked for; undefined for at once. */
  readonly delayMs: number | undefined;
}

/**
 * A run queue for tests: it records what was enqueued (with delays) and interrupted, and hands runs
 * out only when a test `take`s them, so nothing executes unless the test says so.
 */
export class InMemoryRunQueue implements RunQueue {
  /** Every `enqueue`, in order (taken ones too). */
  readonly enqueued: EnqueuedRun[] = [];
  /** Every `interrupt`, in order. */
  readonly interrupted: string[] = [];
  /** Makes the next `enqueue` fail with this error (the queue's database is down). */
  failNextEnqueue: Error | null = null;
  private readonly waiting: EnqueuedRun[] = [];

  async enqueue({ runId, ownerId }: RunTicket, options: { delayMs?: number } = {}): Promise<void> {
    if (this.failNextEnqueue) {
      const error = this.failNextEnqueue;
      this.failNextEnqueue = null;
      throw error;
    }
    const entry = { runId, ownerId, delayMs: options.delayMs };
    this.enqueued.push(entry);
    this.waiting.push(entry);
  }

  interrupt(runId: string): void {
    this.interrupted.push(runId);
  }

  async depth(): Promise<number> {
    return this.waiting.length;
  }

  /** The oldest waiting run's id, removed from the queue (as a worker takes it); null when none waits. */
  take(): string | null {
    return this.waiting.shift()?.runId ?? null;
  }
}
