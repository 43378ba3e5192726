import type { Timers } from '@browserdeck/domain';

/**
 * The runtime's timers: `setInterval`, unref'd so a heartbeat or a sweep never keeps a process
 * alive that has nothing else to do.
 */
export class SystemTimers implements Timers {
  every(intervalMs: number, task: () => void): () => void {
    const timer = setInterval(task, intervalMs);
    timer.unref();
    return () => clearInterval(timer);
  }
}
