import type { Logger } from '@browserdeck/domain';
import type { BlobStore } from '../../shared-state/BlobStore.ts';
import type { CapturedNetworkEvent } from './Har.ts';

/** Where sessions' network captures are in the blob store: `network/<providerSessionId>/…`. */
export const NETWORK_CAPTURE_PREFIX = 'network/';

/** How much of a capture is held before it is written out (bytes of NDJSON). */
const CHUNK_BYTES = 64 * 1024;
/** How long a captured event waits at most before it is written out. */
const FLUSH_AFTER_MS = 1000;

/** A capture's manifest (`network/<id>/manifest`): what its chunks hold. */
interface CaptureManifest {
  /** Chunks `network/<id>/0` … `chunks - 1`, in order. */
  readonly chunks: number;
  /** NDJSON bytes written. */
  readonly bytes: number;
  /** The per-session bound stopped the capture: later events were not kept. */
  readonly capped: boolean;
  /** The session ended and everything it captured is written. */
  readonly ended: boolean;
}

/** A session's capture as read back (`readNetworkCapture`). */
export interface StoredNetworkCapture {
  readonly events: CapturedNetworkEvent[];
  readonly bytes: number;
  readonly capped: boolean;
  readonly ended: boolean;
}

function manifestKey(providerSessionId: string): string {
  return `${NETWORK_CAPTURE_PREFIX}${providerSessionId}/manifest`;
}

function chunkKey(providerSessionId: string, chunk: number): string {
  return `${NETWORK_CAPTURE_PREFIX}${providerSessionId}/${chunk}`;
}

/**
 * One session's network events (the CDP messages a HAR is made of, `HAR_CDP_EVENTS`), written to
 * the blob store as they arrive: NDJSON in chunks of at most 64 KiB, each written when it fills or a
 * second after its first event, with a manifest written at the start and after each, so any instance reads the
 * capture during the session and after it (`readNetworkCapture`). Never held whole in memory: at
 * most one chunk waits. Bounded: past `maxBytes` nothing more is kept and the manifest says so
 * (`onCapped` is told once). Writes are serial; one that fails is logged and its events are lost,
 * the capture goes on.
 */
export class NetworkCapture {
  private readonly blobs: BlobStore;
  private readonly providerSessionId: string;
  private readonly maxBytes: number;
  private readonly logger: Logger;
  private readonly onCapped: () => void;
  private pending: string[] = [];
  private pendingBytes = 0;
  private chunks = 0;
  private bytes = 0;
  private capped = false;
  private ended = false;
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(deps: {
    blobs: BlobStore;
    providerSessionId: string;
    maxBytes: number;
    logger: Logger;
    onCapped?: (() => void) | undefined;
  }) {
    this.blobs = deps.blobs;
    this.providerSessionId = deps.providerSessionId;
    this.maxBytes = deps.maxBytes;
    this.logger = deps.logger;
    this.onCapped = deps.onCapped ?? (() => {});
    // The manifest at once: the session's HAR exists (empty) from its start.
    this.flush();
  }

  /** Keeps `event` (unless the bound is reached or the capture ended). */
  push(event: CapturedNetworkEvent): void {
    if (this.capped || this.ended) return;
    const line = `${JSON.stringify(event)}\n`;
    const size = Buffer.byteLength(line);
    if (this.bytes + this.pendingBytes + size > this.maxBytes) {
      this.capped = true;
      this.onCapped();
      this.flush();
      return;
    }
    this.pending.push(line);
    this.pendingBytes += size;
    if (this.pendingBytes >= CHUNK_BYTES) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), FLUSH_AFTER_MS);
  }

  /** The session ended: writes what waits and marks the capture complete. */
  async end(): Promise<void> {
    if (this.ended) return this.writing;
    this.ended = true;
    this.flush();
    await this.writing;
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const lines = this.pending;
    const size = this.pendingBytes;
    this.pending = [];
    this.pendingBytes = 0;
    this.writing = this.writing.then(() => this.write(lines, size));
  }

  private async write(lines: string[], size: number): Promise<void> {
    try {
      if (lines.length > 0) {
        await this.blobs.put(chunkKey(this.providerSessionId, this.chunks), Buffer.from(lines.join('')));
        this.chunks++;
        this.bytes += size;
      }
      const manifest: CaptureManifest = {
        chunks: this.chunks,
        bytes: this.bytes,
        capped: this.capped,
        ended: this.ended,
      };
      await this.blobs.put(manifestKey(this.providerSessionId), Buffer.from(JSON.stringify(manifest)));
    } catch (error) {
      this.logger.warn(
        { err: error, providerSessionId: this.providerSessionId },
        'network capture: could not store a chunk of a session’s network events',
      );
    }
  }
}

/** A session's network capture, from any instance; null when none was made (or it is gone). */
export async function readNetworkCapture(
  blobs: BlobStore,
  providerSessionId: string,
): Promise<StoredNetworkCapture | null> {
  const manifestBytes = await blobs.get(manifestKey(providerSessionId));
  if (!manifestBytes) return null;
  const manifest = JSON.parse(Buffer.from(manifestBytes).toString('utf8')) as CaptureManifest;
  const events: CapturedNetworkEvent[] = [];
  for (let chunk = 0; chunk < manifest.chunks; chunk++) {
    const bytes = await blobs.get(chunkKey(providerSessionId, chunk));
    if (!bytes) continue;
    for (const line of Buffer.from(bytes).toString('utf8').split('\n')) {
      if (line) events.push(JSON.parse(line) as CapturedNetworkEvent);
    }
  }
  return { events, bytes: manifest.bytes, capped: manifest.capped, ended: manifest.ended };
}

/** Removes the network captures last written before `before`: the retention sweep. */
export function deleteNetworkCapturesBefore(blobs: BlobStore, before: Date): Promise<number> {
  return blobs.deleteBefore(NETWORK_CAPTURE_PREFIX, before);
}
