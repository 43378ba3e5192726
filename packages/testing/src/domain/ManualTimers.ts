import type { Timers } from '@browserdeck/domain';

/** Timers a test fires by hand: nothing repeats until `tick()`. */
export class ManualTimers implements Timers {
  private readonly tasks = new Set<{ intervalMs: number; task: () => void }>();
  /** The interval of every `every` call, in order (stopped ones too). */
  readonly intervals: number[] = [];

  every(intervalMs: number, task: () => void): () => void {
    const entry = { intervalMs, task };
    this.tasks.add(entry);
    this.intervals.push(intervalMs);
    return () => {
      this.tasks.delete(entry);
    };
  }

  /** Runs every task not stopped once, as if each interval had passed; returns how many ran. */
  tick(): number {
    const due = [...this.tasks];
    for (const entry of due) entry.task();
    return due.length;
  }

  /** How many tasks repeat now (not stopped). */
  get active(): number {
    return this.tasks.size;
  }
}
