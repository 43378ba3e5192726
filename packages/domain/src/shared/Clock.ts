/** The source of the current time. Use cases never call `new Date()` themselves. */
export interface Clock {
  now(): Date;
}
