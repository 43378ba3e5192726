import type { RunRepository } from '@browserdeck/domain';
import type { Logger } from 'pino';
import type { RunQueueConsumer, RunWorkQueue } from './RunWorkQueue.ts';

/** What the in-process queue needs. */
export interface InProcessRunQueueDeps {
  /** Where the QUEUED runs are found again when the worker starts (after a restart). */
  runs: Pick<RunRepository, 'listQueued'>;
  logger: Pick<Logger, 'error'>;
  /** QUEUED runs picked up at start, oldest first (default 10 000). */
  pickupLimit?: number | undefined;
}

/**
 * The run queue of a single instance (SQLite, or in-memory storage): ids in memory, first in first
 * out, a back-off on a timer. The runs table is the durable part: at `start` the runs still QUEUED
 * there (accepted before a restart) are queued again, so none is lost with the process.
 */
export class InProcessRunQueue implements RunWorkQueue {
  private readonly deps: InProcessRunQueueDeps;
  private readonly waiting: string[] = [];
  private readonly delayed = new Map<string, NodeJS.Timeout>();
  private readonly running = new Set<string>();
  /** Running runs enqueued again meanwhile (a requeue after a refusal): queued once they are over. */
  private readonly again = new Set<string>();
  private consumer: RunQueueConsumer | undefined;
  private concurrency = 0;
  private taking = false;
  private closed = false;

  constructor(deps: InProcessRunQueueDeps) {
    this.deps = deps;
  }

  async enqueue(runId: string, options: { delayMs?: number } = {}): Promise<void> {
    if (this.closed) throw new Error('The run queue is closed.');
    clearTimeout(this.delayed.get(runId));
    this.delayed.delete(runId);
    const delayMs = options.delayMs ?? 0;
    if (delayMs <= 0) return this.push(runId);
    // Unref'd: the run stays QUEUED in the table, and a restart picks it up again.
    const timer = setTimeout(() => {
      this.delayed.delete(runId);
      this.push(runId);
    }, delayMs);
    timer.unref();
    this.delayed.set(runId, timer);
  }

  interrupt(runId: string): void {
    const at = this.waiting.indexOf(runId);
    if (at >= 0) this.waiting.splice(at, 1);
    clearTimeout(this.delayed.get(runId));
    this.delayed.delete(runId);
    this.again.delete(runId);
    this.consumer?.interrupt(runId);
  }

  async depth(): Promise<number> {
    return this.waiting.length + this.delayed.size;
  }

  async start(consumer: RunQueueConsumer, options: { concurrency: number }): Promise<void> {
    if (this.closed || this.consumer) return;
    this.consumer = consumer;
    this.concurrency = Math.max(1, options.concurrency);
    this.taking = true;
    const queued = await this.deps.runs.listQueued(this.deps.pickupLimit ?? 10_000);
    for (const run of queued) if (!this.delayed.has(run.id)) this.push(run.id);
    this.dispatch();
  }

  async stopTaking(): Promise<void> {
    this.taking = false;
  }

  async close(): Promise<void> {
    this.taking = false;
    this.closed = true;
    for (const timer of this.delayed.values()) clearTimeout(timer);
    this.delayed.clear();
  }

  private push(runId: string): void {
    if (this.running.has(runId)) {
      this.again.add(runId);
      return;
    }
    if (!this.waiting.includes(runId)) this.waiting.push(runId);
    this.dispatch();
  }

  private dispatch(): void {
    const consumer = this.consumer;
    while (consumer && this.taking && this.running.size < this.concurrency && this.waiting.length > 0) {
      const runId = this.waiting.shift() as string;
      this.running.add(runId);
      consumer
        .run(runId)
        .catch((error: unknown) =>
          this.deps.logger.error({ err: error, runId }, 'a run failed in its worker'),
        )
        .finally(() => {
          this.running.delete(runId);
          if (this.again.delete(runId)) this.waiting.push(runId);
          this.dispatch();
        });
    }
  }
}
