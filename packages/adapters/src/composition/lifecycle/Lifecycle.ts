import { PART_PHASES, type Part } from './Part.ts';

/**
 * The parts the composition opened, in the order it opened them: `start()` starts them in that
 * order; `stop()` stops them phase by phase (`PART_PHASES`), the last opened first within a phase,
 * one at a time. A stop that fails does not keep the others from stopping: `stop()` then rejects
 * with its error (with an `AggregateError` of them all when several failed), once every part had
 * its turn.
 */
export class Lifecycle {
  private readonly opened: Part[] = [];
  private started = false;
  private stopping: Promise<void> | undefined;

  /** Adds a part just opened, and hands it back. */
  add<P extends Part>(part: P): P {
    this.opened.push(part);
    return part;
  }

  /** The parts, in the order they were opened. */
  get parts(): readonly Part[] {
    return [...this.opened];
  }

  /** The parts in the order `stop()` stops them. */
  stopOrder(): Part[] {
    const newestFirst = [...this.opened].reverse();
    return PART_PHASES.flatMap((phase) => newestFirst.filter((part) => part.phase === phase));
  }

  /** Starts every part, in the order they were opened. Once; never after `stop()`. */
  start(): void {
    if (this.started || this.stopping) return;
    this.started = true;
    for (const part of this.opened) part.start?.();
  }

  /** Stops every part, by phase. Once: later calls get the same promise. */
  stop(): Promise<void> {
    this.stopping ??= this.stopAll();
    return this.stopping;
  }

  private async stopAll(): Promise<void> {
    const failed: Array<{ name: string; error: unknown }> = [];
    for (const part of this.stopOrder()) {
      try {
        await part.stop();
      } catch (error) {
        failed.push({ name: part.name, error });
      }
    }
    const [first] = failed;
    if (failed.length === 1 && first) throw first.error;
    if (failed.length > 1) {
      throw new AggregateError(
        failed.map(({ error }) => error),
        `${failed.length} parts failed to stop: ${failed.map(({ name }) => name).join(', ')}`,
      );
    }
  }
}
