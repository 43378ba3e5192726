/** Options of a periodic pass. */
export interface PeriodicPassOptions {
  /**
   * One pass. `stopped()` turns true at `stop()`, for a long pass to end early; a rejection goes
   * to `onError`.
   */
  pass: (stopped: () => boolean) => Promise<void>;
  /** From the end of one pass to the start of the next, in milliseconds. */
  intervalMs: number;
  /** From `start()` to the first pass, in milliseconds (default `intervalMs`). */
  firstDelayMs?: number | undefined;
  /** Told of a pass that failed (it is logged there); the next pass comes as usual. */
  onError: (error: unknown) => void;
}

/**
 * The loop the composition's periodic work shares (the session reconciler, the sweep for old runs,
 * the proxy-byte flusher): after `start()` a pass every `intervalMs`, counted from the end of the
 * previous one, so passes never overlap; a pass that fails is reported and the loop goes on.
 * `stop()` ends the loop and waits for the pass under way; timers never keep the process alive.
 */
export class PeriodicPass {
  private readonly options: PeriodicPassOptions;
  private timer: NodeJS.Timeout | undefined;
  private tail: Promise<void> | undefined;
  private started = false;
  private isStopped = false;

  constructor(options: PeriodicPassOptions) {
    this.options = options;
  }

  /** True once `stop()` was called. */
  get stopped(): boolean {
    return this.isStopped;
  }

  /** The pass under way (or the last one asked for), if any; it never rejects. */
  get running(): Promise<void> | undefined {
    return this.tail;
  }

  /** Starts the loop. Idempotent; nothing once stopped. */
  start(): void {
    if (this.started || this.isStopped) return;
    this.started = true;
    this.schedule(this.options.firstDelayMs ?? this.options.intervalMs);
  }

  /** One pass now, after the one under way (also once stopped); resolves when it is over, never rejects. */
  run(): Promise<void> {
    const pass = (this.tail ?? Promise.resolve())
      .then(() => this.options.pass(() => this.isStopped))
      .catch((error: unknown) => this.options.onError(error));
    this.tail = pass;
    void pass.finally(() => {
      if (this.tail === pass) this.tail = undefined;
    });
    return pass;
  }

  /** Ends the loop and waits for the pass under way. */
  async stop(): Promise<void> {
    this.isStopped = true;
    clearTimeout(this.timer);
    await this.tail;
  }

  private schedule(delayMs: number): void {
    if (this.isStopped) return;
    this.timer = setTimeout(() => {
      // A pass asked for meanwhile (`run()`) counts as this one.
      void (this.tail ?? this.run()).then(() => this.schedule(this.options.intervalMs));
    }, delayMs);
    this.timer.unref();
  }
}
