import type { Clock, HarDocument, Logger, NetworkCapability } from '@browserdeck/domain';
import type { BlobStore } from '../../shared-state/BlobStore.ts';
import { harOfCapture } from './harOfCapture.ts';
import { deleteNetworkCapturesBefore, NetworkCapture, readNetworkCapture } from './NetworkCapture.ts';

/** The largest network capture of one session by default (bytes of captured events): 32 MiB. */
export const NETWORK_CAPTURE_MAX_BYTES_DEFAULT = 32 * 1024 * 1024;

/** How long a session's capture is kept after it was last written, by default: 7 days (SPEC §18). */
export const NETWORK_CAPTURE_RETENTION_DAYS_DEFAULT = 7;

/** How often the captures past their retention are looked for (at a session's start). */
const SWEEP_EVERY_MS = 60 * 60 * 1000;

/** What made a HAR, in its `creator`. */
const CREATOR = { name: 'Browserdeck', version: '1' };

/**
 * Sessions' network captures in the shared blob store, for a provider whose browsers this process
 * records over CDP (local, Selenium Grid): a new `NetworkCapture` per session (`start`), and HAR 1.2
 * of any session's capture from any instance (`har`, the provider's `network` capability).
 */
export class NetworkCaptures implements NetworkCapability {
  private readonly blobs: BlobStore;
  private readonly maxBytes: number;
  private readonly logger: Logger;
  private readonly clock: Clock;
  private readonly retentionMs: number;
  private lastSweep = Number.NEGATIVE_INFINITY;

  constructor(deps: {
    blobs: BlobStore;
    clock: Clock;
    logger: Logger;
    maxBytes?: number | undefined;
    retentionDays?: number | undefined;
  }) {
    this.blobs = deps.blobs;
    this.clock = deps.clock;
    this.logger = deps.logger;
    this.maxBytes = deps.maxBytes ?? NETWORK_CAPTURE_MAX_BYTES_DEFAULT;
    this.retentionMs = (deps.retentionDays ?? NETWORK_CAPTURE_RETENTION_DAYS_DEFAULT) * 86_400_000;
  }

  /**
   * A capture for the session `providerSessionId`; `onCapped` is told once when its bound is reached.
   * At most once an hour it also removes, in the background, the captures past their retention.
   */
  start(providerSessionId: string, onCapped?: () => void): NetworkCapture {
    const now = this.clock.now().getTime();
    if (now - this.lastSweep >= SWEEP_EVERY_MS) {
      this.lastSweep = now;
      deleteNetworkCapturesBefore(this.blobs, new Date(now - this.retentionMs)).catch((error: unknown) =>
        this.logger.warn({ err: error }, 'network capture: could not remove captures past their retention'),
      );
    }
    return new NetworkCapture({
      blobs: this.blobs,
      providerSessionId,
      maxBytes: this.maxBytes,
      logger: this.logger,
      onCapped,
    });
  }

  async har(providerSessionId: string, options: { sensitive: boolean }): Promise<HarDocument | null> {
    const capture = await readNetworkCapture(this.blobs, providerSessionId);
    if (!capture) return null;
    const har = harOfCapture(capture.events, { sensitive: options.sensitive, creator: CREATOR });
    return { log: { ...har.log, _capped: capture.capped, _ended: capture.ended } };
  }
}
