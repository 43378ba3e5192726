import type { Clock } from '../shared/Clock.ts';
import { type Logger, silentLogger } from '../shared/Logger.ts';
import type { RunChanges } from './RunChanges.ts';
import type { RunLogLine, RunLogStore } from './RunLogStore.ts';
import { capRunLogLine, type RunLogStream, runLogLineBytes } from './runRules.ts';

/** What a `RunLogWriter` writes through, and the run's log budget. */
export interface RunLogWriterDeps {
  runLogs: RunLogStore;
  runChanges: RunChanges;
  clock: Clock;
  logger?: Logger | undefined;
  /** The run's budget of UTF-8 bytes of output (`RUN_MAX_LOG_BYTES`). */
  maxBytes: number;
}

/**
 * The log of one run as its worker writes it: numbers lines (`seq`), cuts long ones
 * (`capRunLogLine`), keeps output within the byte budget (past it one `system` line says so and
 * the rest is dropped, while the script keeps running), and stores lines in batches: one append in
 * flight at a time, the next batch collecting meanwhile, readers notified after each. A failed
 * append is logged and its lines lost; the run goes on.
 */
export class RunLogWriter {
  private readonly deps: RunLogWriterDeps;
  private readonly runId: string;
  private pending: RunLogLine[] = [];
  private inFlight: Promise<void> | null = null;
  private seq: number;
  private limitReached = false;
  /** What every line accepted so far costs of the budget (`runLogLineBytes`: stream and message). */
  bytes: number;

  /** Continues after `lastSeq` and `bytes` already stored (a run picked up again after a requeue). */
  constructor(deps: RunLogWriterDeps, runId: string, stored: { lastSeq: number; bytes: number }) {
    this.deps = deps;
    this.runId = runId;
    this.seq = stored.lastSeq;
    this.bytes = stored.bytes;
  }

  /** A line of the script's output: subject to the budget. */
  output(stream: RunLogStream, message: string, timestamp: Date): void {
    const line = storable(message);
    const size = runLogLineBytes(stream, line);
    if (this.limitReached || this.bytes + size > this.deps.maxBytes) {
      if (!this.limitReached) {
        this.limitReached = true;
        this.system(`log limit of ${this.deps.maxBytes} bytes reached; further output dropped`);
      }
      return;
    }
    this.push(stream, line, timestamp);
  }

  /** A line of the worker's own (the session is ready, the run was requeued): never dropped. */
  system(message: string): void {
    this.push('system', storable(message), this.deps.clock.now());
  }

  /** Resolves once every line accepted so far has been stored (or failed to be). */
  async flush(): Promise<void> {
    while (this.inFlight || this.pending.length > 0) {
      if (!this.inFlight) this.startAppend();
      await this.inFlight;
    }
  }

  private push(stream: RunLogStream, message: string, timestamp: Date): void {
    this.seq++;
    this.bytes += runLogLineBytes(stream, message);
    this.pending.push({ seq: this.seq, timestamp, stream, message });
    if (!this.inFlight) this.startAppend();
  }

  private startAppend(): void {
    const batch = this.pending;
    this.pending = [];
    this.inFlight = this.deps.runLogs
      .append(this.runId, batch)
      .then(
        () => this.deps.runChanges.notify(this.runId),
        (error: unknown) =>
          (this.deps.logger ?? silentLogger).error(
            { runId: this.runId, lines: batch.length, error: String(error) },
            'could not store log lines of a run',
          ),
      )
      .then(() => {
        this.inFlight = null;
        if (this.pending.length > 0) this.startAppend();
      });
  }
}

/** `message` as a log line can hold it: at most `RUN_LOG_LINE_MAX_BYTES`, no NUL, well-formed. */
function storable(message: string): string {
  return capRunLogLine(message.replaceAll('\u0000', '\uFFFD').toWellFormed());
}
