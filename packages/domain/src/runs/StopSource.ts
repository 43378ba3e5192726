import type { StopSignal } from '../shared/StopSignal.ts';

/**
 * A `StopSignal` the domain can abort itself (the runtime's `AbortController` is not the domain's
 * to use), optionally following another signal: it aborts when that one does.
 */
export class StopSource implements StopSignal {
  private stopped = false;
  private readonly listeners = new Set<() => void>();
  private readonly unfollow: () => void;

  constructor(follow?: StopSignal) {
    if (!follow) {
      this.unfollow = () => {};
      return;
    }
    const onAbort = () => this.abort();
    follow.addEventListener('abort', onAbort, { once: true });
    this.unfollow = () => follow.removeEventListener('abort', onAbort);
    if (follow.aborted) this.abort();
  }

  get aborted(): boolean {
    return this.stopped;
  }

  /** Aborts once; listeners are called in the order they were added. */
  abort(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.unfollow();
    const listeners = [...this.listeners];
    this.listeners.clear();
    for (const listener of listeners) listener();
  }

  /** Stops following the other signal (the work is over). */
  dispose(): void {
    this.unfollow();
    this.listeners.clear();
  }

  addEventListener(_type: 'abort', listener: () => void): void {
    if (this.stopped) return;
    this.listeners.add(listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    this.listeners.delete(listener);
  }
}
