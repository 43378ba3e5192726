import type { Clock } from './Clock.ts';

/** The real time. */
export class SystemClock implements Clock {
  now(): Date {
    return new Date();
  }
}
