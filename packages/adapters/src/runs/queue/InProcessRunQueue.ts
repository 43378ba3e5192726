import type { RunRepository, RunTicket } from '@browserdeck/domain';
import type { Logger } from 'pino';
import { FairRunOrder } from './FairRunOrder.ts';
import type { RunQueueConsumer, RunWorkQueue } from './RunWorkQueue.ts';

/** What the in-process queue needs. */
export interface InProcessRunQueueDeps {
  /** Where the QUEUED runs are found again when the worker starts (after a restart). */
  runs: Pick<RunRepository, 'listQueued'>;
  logger: Pick<Logger, 'error'>;
  /** QUEUED runs picked up at start, oldest first (default 10 000). */
  pickupLimit?: number | undefined;
  /** Runs of one account executed at once (`RUN_MAX_ACTIVE_PER_OWNER`); default: every slot. */
  maxActivePerOwner?: number | undefined;
}

/**
 * The run queue of a single instance (SQLite, or in-memory storage): tickets in memory, handed out
 * fairly across accounts (`FairRunOrder`: each account's first in first out, at most
 * `maxActivePerOwner` of one account's at once, the next from the account that waited longest), a
 * back-off on a timer. The runs table is the durable part: at `start` the runs still QUEUED
 * there (accepted before a restart) are queued again, so none is lost with the process.
 */
export class InProcessRunQueue implements RunWorkQueue {
  private readonly deps: InProcessRunQueueDeps;
  private waiting = new FairRunOrder(Number.POSITIVE_INFINITY);
  private readonly delayed = new Map<string, NodeJS.Timeout>();
  private readonly running = new Set<string>();
  /** Running runs enqueued again meanwhile (a requeue after a refusal): queued once they are over. */
  private readonly again = new Map<string, RunTicket>();
  private consumer: RunQueueConsumer | undefined;
  private concurrency = 0;
  private taking = false;
  private closed = false;

  constructor(deps: InProcessRunQueueDeps) {
    this.deps = deps;
  }

  async enqueue(ticket: RunTicket, options: { delayMs?: number } = {}): Promise<void> {
    if (this.closed) throw new Error('The run queue is closed.');
    const { runId } = ticket;
    clearTimeout(this.delayed.get(runId));
    this.delayed.delete(runId);
    const delayMs = options.delayMs ?? 0;
    if (delayMs <= 0) return this.push(ticket);
    // Unref'd: the run stays QUEUED in the table, and a restart picks it up again.
    const timer = setTimeout(() => {
      this.delayed.delete(runId);
      this.push(ticket);
    }, delayMs);
    timer.unref();
    this.delayed.set(runId, timer);
  }

  interrupt(runId: string): void {
    this.waiting.remove(runId);
    clearTimeout(this.delayed.get(runId));
    this.delayed.delete(runId);
    this.again.delete(runId);
    this.consumer?.interrupt(runId);
  }

  async depth(): Promise<number> {
    return this.waiting.size + this.delayed.size;
  }

  async start(consumer: RunQueueConsumer, options: { concurrency: number }): Promise<void> {
    if (this.closed || this.consumer) return;
    this.consumer = consumer;
    this.concurrency = Math.max(1, options.concurrency);
    // Runs enqueued before the start keep their places in the order of their accounts.
    const early = this.waiting;
    this.waiting = new FairRunOrder(this.deps.maxActivePerOwner ?? this.concurrency);
    for (let ticket = early.take(); ticket; ticket = early.take()) this.waiting.push(ticket);
    this.taking = true;
    const queued = await this.deps.runs.listQueued(this.deps.pickupLimit ?? 10_000);
    for (const run of queued)
      if (!this.delayed.has(run.id)) this.push({ runId: run.id, ownerId: run.ownerId });
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

  private push(ticket: RunTicket): void {
    if (this.running.has(ticket.runId)) {
      this.again.set(ticket.runId, ticket);
      return;
    }
    this.waiting.push(ticket);
    this.dispatch();
  }

  private dispatch(): void {
    const consumer = this.consumer;
    while (consumer && this.taking && this.running.size < this.concurrency) {
      const ticket = this.waiting.take();
      if (!ticket) return;
      const { runId } = ticket;
      this.running.add(runId);
      consumer
        .run(ticket)
        .catch((error: unknown) =>
          this.deps.logger.error({ err: error, runId }, 'a run failed in its worker'),
        )
        .finally(() => {
          this.running.delete(runId);
          this.waiting.done(ticket.ownerId);
          const again = this.again.get(runId);
          this.again.delete(runId);
          if (again) this.waiting.push(again);
          this.dispatch();
        });
    }
  }
}
