import type { IdGenerator } from '@browserdeck/domain';

/** Deterministic, time-ordered-looking UUIDs for tests: 00000000-0000-7000-8000-000000000001, … */
export class SequentialIdGenerator implements IdGenerator {
  private counter = 0;

  next(): string {
    this.counter++;
    return `00000000-0000-7000-8000-${this.counter.toString(16).padStart(12, '0')}`;
  }
}
