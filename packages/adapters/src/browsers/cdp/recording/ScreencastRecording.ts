import type { Logger } from '@browserdeck/domain';
import type { BlobStore } from '../../shared-state/BlobStore.ts';
import {
  encodeFrame,
  frameChunkKey,
  type ManifestPage,
  type RecordingManifest,
  writeManifest,
} from './recordingStore.ts';

/** How many bytes of one tab's frames are held before they are written out. */
const CHUNK_BYTES = 1024 * 1024;
/** How long a kept frame waits at most before it is written out. */
const FLUSH_AFTER_MS = 1000;

/** A frame as the recorder hands it over. */
export interface ScreencastFrame {
  readonly jpeg: Uint8Array;
  readonly timestampMs: number;
  readonly width: number;
  readonly height: number;
}

/** A tab's frame held back by the frame-rate cap: kept once the gap has passed, unless a newer one replaces it. */
interface HeldFrame {
  frame: ScreencastFrame;
  timer: NodeJS.Timeout;
}

/** A tab's frames not yet written. */
interface TabBuffer {
  records: Buffer[];
  bytes: number;
}

/**
 * One session's recording (SPEC §18): each tab's screencast frames (JPEG, with the wall-clock moment
 * the page showed them) written to the blob store as they arrive, in chunks of at most 1 MiB per tab
 * written when they fill or a second after their first frame, with a manifest (tabs, their URL and
 * title, frames and bytes) written at the start and after each chunk, so any instance reads it.
 * Never held whole in memory. Bounded: past `maxBytes` nothing more is kept, the manifest says so
 * and `onCapped` is told once. Writes are serial; one that fails is logged, the recording goes on.
 * The frame rate is the recorder's to cap (it acknowledges frames no faster than it wants them).
 */
export class ScreencastRecording {
  readonly providerSessionId: string;
  private readonly blobs: BlobStore;
  private maxBytes: number;
  private readonly logger: Logger;
  private readonly onCapped: () => void;
  private readonly manifest: RecordingManifest;
  private readonly buffers = new Map<string, TabBuffer>();
  /** The least time between two kept frames of a tab: `1000 / maxFps`. */
  private readonly minGapMs: number;
  private readonly lastKeptMs = new Map<string, number>();
  private readonly held = new Map<string, HeldFrame>();
  /** Bytes of every frame kept, written or not: what the bound counts. */
  private keptBytes = 0;
  private ended = false;
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(deps: {
    blobs: BlobStore;
    providerSessionId: string;
    maxBytes: number;
    /** The most frames a second kept per tab (default 10). */
    maxFps?: number | undefined;
    logger: Logger;
    onCapped?: (() => void) | undefined;
  }) {
    this.minGapMs = 1000 / (deps.maxFps ?? 10);
    this.blobs = deps.blobs;
    this.providerSessionId = deps.providerSessionId;
    this.maxBytes = deps.maxBytes;
    this.logger = deps.logger;
    this.onCapped = deps.onCapped ?? (() => {});
    this.manifest = {
      state: 'RECORDING',
      bytes: 0,
      capped: false,
      error: null,
      completedAt: null,
      endedAtMs: null,
      pages: [],
    };
    // The manifest at once: the session's replay says RECORDING from its start.
    this.flush();
  }

  /**
   * Lowers the bound to `maxBytes` (the room `Recordings.reserve` found once the recording had
   * started); past it already, the recording stops now.
   */
  limitTo(maxBytes: number): void {
    this.maxBytes = Math.min(this.maxBytes, maxBytes);
    if (this.keptBytes > this.maxBytes && !this.manifest.capped && !this.ended) {
      this.manifest.capped = true;
      this.onCapped();
      this.flush();
    }
  }

  /** A tab appeared (or was recorded from now on), showing `url`. */
  tabOpened(pageId: string, info: { url: string; title: string }, atMs: number): void {
    if (this.ended || this.page(pageId)) return;
    this.manifest.pages.push({
      pageId,
      url: info.url,
      title: info.title,
      startTimeMs: atMs,
      endTimeMs: null,
      width: 0,
      height: 0,
      frames: 0,
      bytes: 0,
      chunks: 0,
      files: [],
    });
  }

  /** The tab navigated or its title changed. */
  tabInfo(pageId: string, info: { url?: string | undefined; title?: string | undefined }): void {
    const page = this.page(pageId);
    if (!page || this.ended) return;
    if (info.url !== undefined) page.url = info.url;
    if (info.title !== undefined) page.title = info.title;
  }

  /** The tab closed (a frame it held back is kept first). */
  tabClosed(pageId: string, atMs: number): void {
    const page = this.page(pageId);
    if (!page || page.endTimeMs !== null || this.ended) return;
    this.keepHeld(pageId);
    page.endTimeMs = atMs;
  }

  /**
   * Takes one frame the tab showed at `timestampMs` (unless the bound is reached or it ended). At
   * most `maxFps` a second are kept: a frame sooner than that after the last kept one is held, and
   * kept at the gap's end unless a newer one replaced it, so the tab's last picture is never lost.
   */
  frame(pageId: string, frame: ScreencastFrame): void {
    const page = this.page(pageId);
    if (!page || this.ended || this.manifest.capped || page.endTimeMs !== null) return;
    const last = this.lastKeptMs.get(pageId);
    const dueMs = last === undefined ? frame.timestampMs : last + this.minGapMs;
    const held = this.held.get(pageId);
    if (held) clearTimeout(held.timer);
    if (frame.timestampMs >= dueMs) {
      this.held.delete(pageId);
      this.keep(pageId, frame);
      return;
    }
    const timer = setTimeout(() => this.keepHeld(pageId), dueMs - frame.timestampMs);
    this.held.set(pageId, { frame: { ...frame, timestampMs: dueMs }, timer });
  }

  private keepHeld(pageId: string): void {
    const held = this.held.get(pageId);
    if (!held) return;
    clearTimeout(held.timer);
    this.held.delete(pageId);
    const page = this.page(pageId);
    if (page && !this.manifest.capped && page.endTimeMs === null) this.keep(pageId, held.frame);
  }

  private keep(pageId: string, frame: ScreencastFrame): void {
    const page = this.page(pageId);
    if (!page) return;
    this.lastKeptMs.set(pageId, frame.timestampMs);
    const record = encodeFrame(frame.timestampMs, frame.jpeg);
    if (this.keptBytes + record.byteLength > this.maxBytes) {
      this.manifest.capped = true;
      this.onCapped();
      this.flush();
      return;
    }
    // The video starts with its first frame: its moment is the tab's start.
    if (page.frames === 0) page.startTimeMs = frame.timestampMs;
    page.frames++;
    page.width = frame.width;
    page.height = frame.height;
    const buffer = this.buffers.get(pageId) ?? { records: [], bytes: 0 };
    this.buffers.set(pageId, buffer);
    buffer.records.push(record);
    buffer.bytes += record.byteLength;
    this.keptBytes += record.byteLength;
    if (buffer.bytes >= CHUNK_BYTES) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), FLUSH_AFTER_MS);
  }

  /**
   * The session ended at `atMs`: writes what waits, closes every tab and marks the recording
   * `PROCESSING` (its videos are to be made). Resolves once the last write is in.
   */
  async end(atMs: number): Promise<RecordingManifest> {
    if (!this.ended) {
      for (const pageId of [...this.held.keys()]) this.keepHeld(pageId);
      this.ended = true;
      for (const page of this.manifest.pages) page.endTimeMs ??= atMs;
      this.manifest.endedAtMs = atMs;
      this.manifest.state = 'PROCESSING';
      this.flush();
    }
    await this.writing;
    return structuredClone(this.manifest);
  }

  private page(pageId: string): ManifestPage | undefined {
    return this.manifest.pages.find((page) => page.pageId === pageId);
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const chunks = [...this.buffers].map(([pageId, buffer]) => ({
      pageId,
      content: Buffer.concat(buffer.records),
    }));
    this.buffers.clear();
    this.writing = this.writing.then(() => this.write(chunks));
  }

  private async write(chunks: Array<{ pageId: string; content: Buffer }>): Promise<void> {
    try {
      for (const { pageId, content } of chunks) {
        const page = this.page(pageId);
        if (!page) continue;
        await this.blobs.put(frameChunkKey(this.providerSessionId, pageId, page.chunks), content);
        page.chunks++;
        page.bytes += content.byteLength;
        this.manifest.bytes += content.byteLength;
      }
      await writeManifest(this.blobs, this.providerSessionId, this.manifest);
    } catch (error) {
      this.logger.warn(
        { err: error, providerSessionId: this.providerSessionId },
        'recording: could not store a chunk of a session’s frames',
      );
    }
  }
}
