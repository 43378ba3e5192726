import type { RunTicket, StopSignal, Timers } from '@browserdeck/domain';
import type { Logger } from 'pino';
import type { RunQueueConsumer, RunWorkQueue } from './queue/RunWorkQueue.ts';

/** What the worker runs: the domain's `ExecuteRun`, or anything with its `execute`. */
export interface ExecuteRunCase {
  execute(input: { runId: string; workerId: string; signal: StopSignal }): Promise<void>;
}

/** What the worker sweeps with: the domain's `ReapLostRuns`, or anything with its `execute`. */
export interface ReapLostRunsCase {
  execute(): Promise<number>;
}

/** What a `RunWorker` needs. */
export interface RunWorkerDeps {
  queue: RunWorkQueue;
  execute: ExecuteRunCase;
  reapLost: ReapLostRunsCase;
  /** Repeats the sweep for lost runs. */
  timers: Timers;
  logger: Pick<Logger, 'info' | 'warn' | 'error' | 'debug'>;
  /** This instance's id: workers are `${instanceId}/${slot}` (the reaper tells instances apart by it). */
  instanceId: string;
  /** Whether this instance takes runs (false: API only; it still sweeps for lost runs). */
  takesRuns: boolean;
  /** Runs at once on this instance. */
  concurrency: number;
  /** How long running runs may take to finish at `close` before they are stopped, in seconds. */
  shutdownGraceSec: number;
  /** Between sweeps for runs whose worker is gone (default 5 000 ms). */
  reapIntervalMs?: number | undefined;
  /** Told when an execution is over, with the worker id it ran under (metrics). */
  onRunDone?: ((runId: string, workerId: string) => void) | undefined;
}

/** A run executing here: how to stop it, and when it is over. */
interface Running {
  readonly controller: AbortController;
  readonly slot: number;
  done: Promise<void>;
}

/**
 * Executes the runs the queue hands this instance, each with a stop signal of its own, so a cancel
 * on this instance (`RunQueue.interrupt`) stops it at once, and sweeps for runs whose worker is gone.
 * `close` stops taking runs, lets the running ones finish for the shutdown grace, then stops them
 * (ExecuteRun ends them CANCELED and releases their sessions) and waits for them.
 */
export class RunWorker implements RunQueueConsumer {
  private readonly deps: RunWorkerDeps;
  private readonly running = new Map<string, Running>();
  private stopSweeping: (() => void) | undefined;
  private sweeping: Promise<void> | undefined;
  private starting: Promise<void> | undefined;
  private closing: Promise<void> | undefined;

  constructor(deps: RunWorkerDeps) {
    this.deps = deps;
  }

  /** Starts the sweep and, when this instance takes runs, taking them. Idempotent. */
  start(): void {
    if (this.starting || this.closing) return;
    const { queue, concurrency, timers, reapIntervalMs = 5_000 } = this.deps;
    void this.sweep();
    this.stopSweeping = timers.every(reapIntervalMs, () => void this.sweep());
    this.starting = this.deps.takesRuns
      ? queue.start(this, { concurrency }).catch((error: unknown) => {
          this.deps.logger.error({ err: error }, 'the run worker could not start: runs wait in the queue');
        })
      : Promise.resolve();
  }

  /** Runs this instance is executing now. */
  get active(): number {
    return this.running.size;
  }

  async run(ticket: RunTicket): Promise<void> {
    const { runId } = ticket;
    // Handed over as the worker closes: back to the queue, for another worker or the next start.
    if (this.closing) return this.handBack(ticket);
    // A run queued again while its execution ends (a requeue): this execution claims it afresh after.
    const previous = this.running.get(runId);
    if (previous) await previous.done;
    if (this.closing) return this.handBack(ticket);
    const entry: Running = {
      controller: new AbortController(),
      slot: this.freeSlot(),
      done: Promise.resolve(),
    };
    const workerId = `${this.deps.instanceId}/${entry.slot}`;
    entry.done = this.deps.execute
      .execute({ runId, workerId, signal: entry.controller.signal })
      .catch((error: unknown) => this.deps.logger.error({ err: error, runId }, 'executing a run failed'))
      .finally(() => {
        if (this.running.get(runId) === entry) this.running.delete(runId);
        this.deps.onRunDone?.(runId, workerId);
      });
    this.running.set(runId, entry);
    await entry.done;
  }

  interrupt(runId: string): void {
    this.running.get(runId)?.controller.abort();
  }

  /**
   * Stops taking runs, gives the running ones `shutdownGraceSec` to finish, stops the rest and waits
   * for them, and stops sweeping. Idempotent.
   */
  close(): Promise<void> {
    this.closing ??= this.shutDown();
    return this.closing;
  }

  private async shutDown(): Promise<void> {
    this.stopSweeping?.();
    await this.starting;
    await this.deps.queue.stopTaking();
    const all = () => Promise.all([...this.running.values()].map((entry) => entry.done));
    if (this.running.size > 0) {
      const graceSec = this.deps.shutdownGraceSec;
      this.deps.logger.info({ runs: this.running.size, graceSec }, 'waiting for running runs to finish');
      let timer: NodeJS.Timeout | undefined;
      const grace = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, graceSec * 1000);
      });
      await Promise.race([all(), grace]);
      clearTimeout(timer);
      for (const entry of this.running.values()) entry.controller.abort();
      await all();
    }
    await this.sweeping;
  }

  private async handBack(ticket: RunTicket): Promise<void> {
    await this.deps.queue
      .enqueue(ticket)
      .catch((error: unknown) =>
        this.deps.logger.warn({ err: error, runId: ticket.runId }, 'could not hand a run back to the queue'),
      );
  }

  /** One sweep for lost runs now, or the one under way; resolves when it is over (it never rejects). */
  sweep(): Promise<void> {
    if (this.sweeping) return this.sweeping;
    this.sweeping = this.deps.reapLost
      .execute()
      .then((reaped) => {
        if (reaped > 0) this.deps.logger.warn({ runs: reaped }, 'ended runs whose worker was lost');
      })
      .catch((error: unknown) => this.deps.logger.warn({ err: error }, 'sweeping for lost runs failed'))
      .finally(() => {
        this.sweeping = undefined;
      });
    return this.sweeping;
  }

  /** The lowest slot no running run holds. */
  private freeSlot(): number {
    const taken = new Set([...this.running.values()].map((entry) => entry.slot));
    let slot = 0;
    while (taken.has(slot)) slot++;
    return slot;
  }
}
