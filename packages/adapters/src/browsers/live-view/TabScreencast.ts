import type { Logger } from '@browserdeck/domain';
import type { CdpClient } from '../cdp/CdpClient.ts';
import { encodeFrame } from './encodeFrame.ts';
import { type FrameMetadata, readFrameMetadata } from './FrameMetadata.ts';
import type { LiveViewer } from './LiveViewer.ts';
import { ScreencastAcks } from './ScreencastAcks.ts';

/**
 * `Page.startScreencast`'s parameters: JPEG at quality 70 (a 1280×720 frame is 10 KB for a plain
 * page, 100 KB and more for a photo-heavy one), at most 1920 px a side (a larger screen is scaled
 * down), every frame the page paints (the rate is capped by pacing the acks instead: see
 * `DEFAULT_MIN_FRAME_INTERVAL_MS`).
 */
export const SCREENCAST_PARAMS = {
  format: 'jpeg',
  quality: 70,
  maxWidth: 1920,
  maxHeight: 1920,
  everyNthFrame: 1,
} as const;

/**
 * The least time between two frame acks: the browser encodes a frame only while fewer than three
 * are unacknowledged, so pacing the acks caps the frame rate (here 20 a second) and with it what a
 * busy page costs the browser and the server (`ScreencastAcks`). A change after a still moment is
 * sent at once: the acks are long released by then.
 */
export const DEFAULT_MIN_FRAME_INTERVAL_MS = 50;

/** How often frames owed to viewers that fell behind are retried. */
const CATCH_UP_MS = 50;
/** `Page.startScreencast` fails while a tab swaps renderers mid-navigation: it is retried. */
const START_ATTEMPTS = 4;
const START_RETRY_MS = 150;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The screencast of one tab, shared by every viewer watching it: attached (flat) and started for the
 * first viewer, stopped and detached for the last. Each frame is encoded once and offered to every
 * viewer; one whose socket has too much unsent skips it and is owed the latest frame once it catches
 * up. The frame is acknowledged (`Page.screencastFrameAck`, which lets the browser send the next)
 * once at least one viewer took it, paced by `ScreencastAcks`; when every viewer is behind, the ack
 * waits until one catches up, so the browser sends no faster than the fastest viewer reads, and
 * the driving client is never waited for.
 */
export class TabScreencast {
  readonly pageId: string;
  readonly viewers = new Set<LiveViewer>();
  /** The flat-mode session attached to the tab, once attached. */
  sessionId: string | null = null;
  /** The latest frame's metadata: input positions are mapped through it. */
  metadata: FrameMetadata | null = null;
  private lastFrame: Buffer | null = null;
  /** The screencast number of a frame not acknowledged yet (every viewer was behind). */
  private unacked: number | null = null;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private readonly client: CdpClient;
  private readonly logger: Logger;
  private readonly attached: (sessionId: string, tab: TabScreencast) => void;
  private readonly acks: ScreencastAcks;

  constructor(deps: {
    client: CdpClient;
    pageId: string;
    logger: Logger;
    /** Called once the tab's session is known, before any of its frames can arrive. */
    attached: (sessionId: string, tab: TabScreencast) => void;
    /** The least time between two acks (`DEFAULT_MIN_FRAME_INTERVAL_MS`); 0 acks at once. */
    minFrameIntervalMs?: number;
  }) {
    this.client = deps.client;
    this.pageId = deps.pageId;
    this.logger = deps.logger;
    this.attached = deps.attached;
    this.acks = new ScreencastAcks({
      minIntervalMs: deps.minFrameIntervalMs ?? DEFAULT_MIN_FRAME_INTERVAL_MS,
      send: (screencastId) => {
        if (this.sessionId !== null)
          this.client.fire('Page.screencastFrameAck', { sessionId: screencastId }, this.sessionId);
      },
      refresh: () => {
        if (this.unacked !== null || this.sessionId === null || this.stopped) return false;
        // Stopped first: a full Chromium (whose screencast is a video capture) ignores a start of a
        // running screencast, and its full window of unacknowledged frames then stalls it for good.
        this.client.fire('Page.stopScreencast', {}, this.sessionId);
        this.client.fire('Page.startScreencast', { ...SCREENCAST_PARAMS }, this.sessionId);
        return true;
      },
    });
  }

  /** Attaches to the tab and starts its screencast; failures are logged (the viewers see no frames). */
  async start(): Promise<void> {
    try {
      const { sessionId } = await this.client.send('Target.attachToTarget', {
        targetId: this.pageId,
        flatten: true,
      });
      if (typeof sessionId !== 'string') throw new Error('Target.attachToTarget answered no sessionId');
      this.sessionId = sessionId;
      this.attached(sessionId, this);
      if (this.stopped) {
        this.client.fire('Target.detachFromTarget', { sessionId });
        return;
      }
      for (let attempt = 1; ; attempt++) {
        try {
          await this.client.send('Page.startScreencast', { ...SCREENCAST_PARAMS }, sessionId);
          return;
        } catch (error) {
          if (attempt >= START_ATTEMPTS || this.client.isClosed) throw error;
          await pause(START_RETRY_MS);
          if (this.stopped) return;
        }
      }
    } catch (error) {
      if (!this.client.isClosed && !this.stopped)
        this.logger.warn({ err: error, pageId: this.pageId }, 'live view: the screencast did not start');
    }
  }

  /** Adds a viewer; it gets the latest frame at once (a still page paints no new one). */
  addViewer(viewer: LiveViewer): void {
    this.viewers.add(viewer);
    viewer.owed = false;
    if (this.lastFrame && !viewer.offerFrame(this.lastFrame)) this.scheduleCatchUp();
  }

  /** Removes a viewer; true when none is left. */
  removeViewer(viewer: LiveViewer): boolean {
    this.viewers.delete(viewer);
    return this.viewers.size === 0;
  }

  /** Stops the screencast and detaches (a no-op the second time). */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.acks.stop();
    if (this.sessionId === null || this.client.isClosed) return;
    this.client.fire('Page.stopScreencast', {}, this.sessionId);
    this.client.fire('Target.detachFromTarget', { sessionId: this.sessionId });
  }

  /** True once stopped. */
  get isStopped(): boolean {
    return this.stopped;
  }

  /** A `Page.screencastFrame` event of this tab. */
  onFrame(params: Record<string, unknown>): void {
    // Chrome's number of the screencast the frame belongs to: what its ack names.
    const screencastId = params.sessionId;
    if (typeof screencastId !== 'number' || this.stopped) return;
    this.acks.received(screencastId);
    const metadata = readFrameMetadata(params.metadata);
    if (!metadata || typeof params.data !== 'string') {
      this.acks.release(screencastId);
      return;
    }
    this.metadata = metadata;
    const frame = encodeFrame(this.pageId, metadata, params.data);
    this.lastFrame = frame;
    let taken = this.viewers.size === 0;
    for (const viewer of this.viewers) if (viewer.offerFrame(frame)) taken = true;
    if (taken) this.acks.release(screencastId);
    else this.unacked = screencastId;
    if (!taken || this.anyOwed()) this.scheduleCatchUp();
  }

  private anyOwed(): boolean {
    for (const viewer of this.viewers) if (viewer.owed && viewer.open) return true;
    return false;
  }

  private scheduleCatchUp(): void {
    if (this.timer || this.stopped) return;
    this.timer = setTimeout(() => this.catchUp(), CATCH_UP_MS);
    this.timer.unref();
  }

  private catchUp(): void {
    this.timer = null;
    if (this.stopped || !this.lastFrame) return;
    let taken = this.viewers.size === 0;
    for (const viewer of this.viewers)
      if (viewer.owed && viewer.ready && viewer.offerFrame(this.lastFrame)) taken = true;
    if (this.unacked !== null && taken) {
      const held = this.unacked;
      this.unacked = null;
      this.acks.release(held);
    }
    if (this.unacked !== null || this.anyOwed()) this.scheduleCatchUp();
  }
}
