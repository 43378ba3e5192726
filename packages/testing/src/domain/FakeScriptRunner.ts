import type {
  Clock,
  ScriptJob,
  ScriptOutcome,
  ScriptOutput,
  ScriptRunner,
  StopSignal,
} from '@browserdeck/domain';

/** A line a play prints: a message (on stdout), or a message on a stream of its own. */
export type FakeScriptLine = string | { stream?: ScriptOutput['stream']; message: string };

/** What the fake does with one job: print, then end as `outcome`, hold until told, or fail to start. */
export interface FakeScriptPlay {
  /** Printed at once, in order. */
  readonly output?: readonly FakeScriptLine[];
  /** How it ends (after `output`): by default it returns null (`resultJson: 'null'`, exit code 0). */
  readonly outcome?: ScriptOutcome;
  /** True: it keeps running after `output` until `finish` (or its signal aborts). */
  readonly hold?: boolean;
  /** The runner could not start the process: `run` rejects with this. */
  readonly rejectWith?: Error;
}

interface Held {
  job: ScriptJob;
  onOutput: (line: ScriptOutput) => void;
  end: (outcome: ScriptOutcome) => void;
}

/**
 * A script runner for tests: plays queued with `willPlay` (then `defaultPlay`) decide what each job
 * prints and how it ends; it records every job it got. A held job runs until `finish`, and ends
 * `aborted` as soon as its signal aborts, as the real runner kills its process.
 */
export class FakeScriptRunner implements ScriptRunner {
  /** Every job received, in order. */
  readonly jobs: ScriptJob[] = [];
  /** What a job does when no queued play is left. */
  defaultPlay: FakeScriptPlay = {};
  private readonly plays: FakeScriptPlay[] = [];
  private readonly held: Held[] = [];
  private readonly holdWatchers: Array<(job: ScriptJob) => void> = [];
  private readonly clock: Clock;

  constructor(options: { clock?: Clock } = {}) {
    this.clock = options.clock ?? { now: () => new Date() };
  }

  /** Queues what the next jobs do, one play per job. */
  willPlay(...plays: FakeScriptPlay[]): this {
    this.plays.push(...plays);
    return this;
  }

  async run(
    job: ScriptJob,
    onOutput: (line: ScriptOutput) => void,
    signal: StopSignal,
  ): Promise<ScriptOutcome> {
    this.jobs.push(job);
    const play = this.plays.shift() ?? this.defaultPlay;
    if (play.rejectWith) throw play.rejectWith;
    if (signal.aborted) return { kind: 'aborted', exitCode: null };
    for (const line of play.output ?? []) onOutput(this.lineOf(line));
    const outcome: ScriptOutcome = play.outcome ?? { kind: 'returned', resultJson: 'null', exitCode: 0 };
    if (!play.hold) return outcome;
    return new Promise<ScriptOutcome>((resolve) => {
      const held: Held = {
        job,
        onOutput,
        end: (ending) => {
          signal.removeEventListener('abort', aborted);
          this.held.splice(this.held.indexOf(held), 1);
          resolve(ending);
        },
      };
      const aborted = () => held.end({ kind: 'aborted', exitCode: null });
      signal.addEventListener('abort', aborted, { once: true });
      this.held.push(held);
      for (const watcher of this.holdWatchers.splice(0)) watcher(job);
    });
  }

  /** Resolves with the job once one is held (at once when one already is). */
  untilHeld(): Promise<ScriptJob> {
    const current = this.held.at(-1);
    if (current) return Promise.resolve(current.job);
    return new Promise((resolve) => this.holdWatchers.push(resolve));
  }

  /** Jobs held now. */
  get holding(): ScriptJob[] {
    return this.held.map((h) => h.job);
  }

  /** A held job (the latest, or `runId`'s) prints `line`. */
  emit(line: FakeScriptLine, runId?: string): void {
    this.heldJob(runId).onOutput(this.lineOf(line));
  }

  /** A held job (the latest, or `runId`'s) ends as `outcome` (by default it returns null). */
  finish(
    outcome: ScriptOutcome = { kind: 'returned', resultJson: 'null', exitCode: 0 },
    runId?: string,
  ): void {
    this.heldJob(runId).end(outcome);
  }

  private heldJob(runId: string | undefined): Held {
    const held = runId === undefined ? this.held.at(-1) : this.held.find((h) => h.job.runId === runId);
    if (!held) throw new Error(`FakeScriptRunner: no job ${runId ?? ''} is held`);
    return held;
  }

  private lineOf(line: FakeScriptLine): ScriptOutput {
    const { stream = 'stdout', message } = typeof line === 'string' ? { message: line } : line;
    return { stream, message, timestamp: this.clock.now() };
  }
}
