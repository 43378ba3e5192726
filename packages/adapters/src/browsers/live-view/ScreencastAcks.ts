/**
 * Frames Chrome sends before it waits for acks: it encodes a captured frame only while at most two
 * are unacknowledged, and drops the capture otherwise, for good.
 */
export const CHROME_UNACKED_FRAMES = 3;

/**
 * How long after the window reopened a frame must have come; else the tab's latest paint may have
 * been dropped while it was full, and a refresh is asked for.
 */
const REFRESH_AFTER_MS = 50;

/**
 * The acks of one tab's screencast (`Page.screencastFrameAck`), paced: at most one per
 * `minIntervalMs`, in order, which caps the frame rate of a busy page. Chrome acks by screencast
 * (every frame of one `Page.startScreencast` carries its number), counting frames in flight, and a
 * paint it captured while three were unacknowledged is dropped and never captured again: a page
 * that stops changing then would stay shown as it was before. So once the window has been full, the
 * ack that reopens it is watched: when no frame follows within `REFRESH_AFTER_MS`, `refresh` is
 * called (the tab's screencast is started again, which captures the page as it is now).
 */
export class ScreencastAcks {
  private readonly minIntervalMs: number;
  private readonly send: (screencastId: number) => void;
  private readonly refresh: () => boolean;
  /** Acks waiting for their turn, oldest first. */
  private readonly queue: number[] = [];
  private timer: NodeJS.Timeout | null = null;
  private refreshTimer: NodeJS.Timeout | null = null;
  private lastAckAt = Number.NEGATIVE_INFINITY;
  /** The newest screencast number seen, and its frames not acknowledged yet. */
  private current = Number.NEGATIVE_INFINITY;
  private inFlight = 0;
  /** True once the window was full, until a frame follows its reopening (or a refresh is asked for). */
  private mayHaveDropped = false;
  /** True once an ack reopened a window that was full, until the next frame. */
  private reopened = false;
  private stopped = false;

  constructor(deps: {
    minIntervalMs: number;
    /** Sends one ack. */
    send: (screencastId: number) => void;
    /**
     * Asks the browser for a frame of the page as it is now (a new screencast number); false when it
     * cannot now (a frame is held for viewers that are behind), so the next ack tries again.
     */
    refresh: () => boolean;
  }) {
    this.minIntervalMs = deps.minIntervalMs;
    this.send = deps.send;
    this.refresh = deps.refresh;
  }

  /** A frame arrived. */
  received(screencastId: number): void {
    if (screencastId > this.current) {
      this.current = screencastId;
      this.inFlight = 0;
    }
    if (screencastId !== this.current) return;
    if (this.reopened) {
      // Admitted after the reopening ack, so captured after it: it shows every paint before it.
      this.reopened = false;
      this.mayHaveDropped = false;
    }
    this.inFlight++;
    if (this.inFlight >= CHROME_UNACKED_FRAMES) this.mayHaveDropped = true;
  }

  /** Acks a frame: now, or once `minIntervalMs` has passed since the previous ack. */
  release(screencastId: number): void {
    this.queue.push(screencastId);
    this.drain();
  }

  /** Cancels everything pending. */
  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.refreshTimer) clearTimeout(this.refreshTimer);
    this.timer = null;
    this.refreshTimer = null;
    this.queue.length = 0;
  }

  private drain(): void {
    if (this.timer || this.stopped) return;
    const wait = this.lastAckAt + this.minIntervalMs - performance.now();
    if (wait > 0) {
      this.timer = setTimeout(() => {
        this.timer = null;
        this.drain();
      }, wait);
      this.timer.unref();
      return;
    }
    const next = this.queue.shift();
    if (next === undefined) return;
    this.lastAckAt = performance.now();
    this.send(next);
    if (next === this.current && this.inFlight > 0) {
      this.inFlight--;
      if (this.mayHaveDropped && this.inFlight < CHROME_UNACKED_FRAMES) {
        this.reopened = true;
        this.watchReopening();
      }
    }
    if (this.queue.length > 0) this.drain();
  }

  private watchReopening(): void {
    if (this.refreshTimer) clearTimeout(this.refreshTimer);
    this.refreshTimer = setTimeout(() => {
      this.refreshTimer = null;
      if (this.stopped || !this.reopened || this.queue.length > 0) return;
      if (this.refresh()) {
        this.reopened = false;
        this.mayHaveDropped = false;
      }
    }, REFRESH_AFTER_MS);
    this.refreshTimer.unref();
  }
}
