/** Repeats work on a timer: the part of the runtime's timers the domain uses (a worker's heartbeat). */
export interface Timers {
  /** Calls `task` every `intervalMs` until the returned function is called. */
  every(intervalMs: number, task: () => void): () => void;
}
