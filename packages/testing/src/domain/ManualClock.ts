import type { Clock } from '@browserdeck/domain';

/** A clock tests move by hand. Every `now()` returns a fresh Date. */
export class ManualClock implements Clock {
  private ms: number;

  constructor(start: Date | string = '2026-01-01T00:00:00.000Z') {
    this.ms = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.ms);
  }

  /** Moves time forward. */
  advance(ms: number): void {
    this.ms += ms;
  }
}
