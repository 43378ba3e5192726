import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Clock, Logger, RecordingCapability, RecordingFile, StoredRecording } from '@browserdeck/domain';
import type { BlobStore } from '../../shared-state/BlobStore.ts';
import { makeVideo } from './makeVideo.ts';
import { ownerKey, planRecordingSpace, recordingsOf } from './recordingSpace.ts';
import {
  downloadsKey,
  frameChunkKey,
  type ManifestPage,
  RECORDINGS_PREFIX,
  type RecordingManifest,
  readFrames,
  readManifest,
  videoFileKey,
  writeManifest,
} from './recordingStore.ts';
import { ScreencastRecording } from './ScreencastRecording.ts';

/** The largest recording of one session by default (bytes of frames): 200 MiB (`RECORDING_MAX_MB`). */
export const RECORDING_MAX_BYTES_DEFAULT = 200 * 1024 * 1024;
/** How long a recording is kept after its session ended, by default: 7 days (SPEC §18). */
export const RECORDINGS_RETENTION_DAYS_DEFAULT = 7;
/** The most frames a second a tab's recording keeps by default (a page animating without end costs at most this). */
export const RECORDING_MAX_FPS_DEFAULT = 10;

/** All recordings together at most by default (`RECORDINGS_MAX_GB`): 20 GiB. */
export const RECORDINGS_MAX_TOTAL_BYTES_DEFAULT = 20 * 1024 ** 3;

/** A date after every write: `deleteBefore` it removes everything under a prefix. */
const END_OF_TIME = new Date(8.64e15);

/**
 * How long after its session ended a recording may say `PROCESSING` before a downloads request
 * makes its videos again (the instance making them is taken to have stopped).
 */
export const STALE_PROCESSING_MS = 10 * 60 * 1000;

/** How long a shutdown waits for the videos of the sessions it ended. */
export const RECORDINGS_SHUTDOWN_WAIT_MS = 30_000;

/** How often the recordings past their retention are looked for (at a session's start). */
const SWEEP_EVERY_MS = 60 * 60 * 1000;

/**
 * Sessions' recordings in the shared blob store, for a provider whose browsers this process records
 * over CDP (local, Selenium Grid): a new `ScreencastRecording` per session (`start`); once the session
 * has ended, each tab's video made with ffmpeg (`finish`: an MP4 and an HLS VOD playlist, the frames
 * then removed); and any session's recording read from any instance (the `recording` capability).
 */
export class Recordings implements RecordingCapability {
  readonly retentionDays: number;
  /** True: sessions are recorded unless a create switches it off (`RECORD_SESSIONS`). */
  readonly byDefault: boolean;
  readonly maxFps: number;
  private readonly blobs: BlobStore;
  private readonly maxBytes: number;
  private readonly logger: Logger;
  private readonly clock: Clock;
  private readonly ffmpegPath: string | undefined;
  private readonly maxTotalBytes: number;
  private readonly maxBytesPerOwner: number;
  private lastSweep = Number.NEGATIVE_INFINITY;
  /** The recordings this instance writes now: never evicted to make room. */
  private readonly active = new Set<string>();
  /** The videos being made, one session after the other (ffmpeg takes a core while it runs). */
  private making: Promise<void> = Promise.resolve();

  constructor(deps: {
    blobs: BlobStore;
    clock: Clock;
    logger: Logger;
    byDefault?: boolean | undefined;
    maxBytes?: number | undefined;
    /** All recordings together at most (`RECORDINGS_MAX_GB`; default 20 GiB). */
    maxTotalBytes?: number | undefined;
    /** One account's recordings at most (default half of `maxTotalBytes`). */
    maxBytesPerOwner?: number | undefined;
    retentionDays?: number | undefined;
    maxFps?: number | undefined;
    ffmpegPath?: string | undefined;
  }) {
    this.maxTotalBytes = deps.maxTotalBytes ?? RECORDINGS_MAX_TOTAL_BYTES_DEFAULT;
    this.maxBytesPerOwner = Math.min(deps.maxBytesPerOwner ?? this.maxTotalBytes / 2, this.maxTotalBytes);
    this.blobs = deps.blobs;
    this.clock = deps.clock;
    this.logger = deps.logger;
    this.byDefault = deps.byDefault ?? true;
    this.maxBytes = deps.maxBytes ?? RECORDING_MAX_BYTES_DEFAULT;
    this.retentionDays = deps.retentionDays ?? RECORDINGS_RETENTION_DAYS_DEFAULT;
    this.maxFps = deps.maxFps ?? RECORDING_MAX_FPS_DEFAULT;
    this.ffmpegPath = deps.ffmpegPath;
  }

  /** Whether a session created with `record` (null: not said) is recorded. */
  records(record: boolean | null): boolean {
    return record ?? this.byDefault;
  }

  /**
   * Room for a new recording of `ownerId` (SPEC §18): its bound in bytes, at most `RECORDING_MAX_MB`,
   * made by removing the owner's own oldest recordings past its share, never another account's;
   * less (or 0) when all recordings together leave less. Checked when a session starts (sessions
   * starting at once each see the same room). When the store cannot be read, the per-session bound.
   */
  async reserve(ownerId: string): Promise<number> {
    try {
      const recordings = recordingsOf(await this.blobs.list(RECORDINGS_PREFIX));
      const active = new Set(this.active);
      const plan = () =>
        planRecordingSpace(recordings, {
          ownerId,
          perSessionBytes: this.maxBytes,
          perOwnerBytes: this.maxBytesPerOwner,
          totalBytes: this.maxTotalBytes,
          active,
        });
      let space = plan();
      // Another instance's recordings being written or made are not evicted either: a candidate
      // whose manifest says so is kept, and the room planned again.
      for (let unchecked = space.evict; unchecked.length > 0; ) {
        const busy: string[] = [];
        for (const id of unchecked) {
          const state = (await readManifest(this.blobs, id))?.state;
          if (state === 'RECORDING' || state === 'PROCESSING') busy.push(id);
        }
        if (busy.length === 0) break;
        for (const id of busy) active.add(id);
        const checked = new Set(unchecked);
        space = plan();
        unchecked = space.evict.filter((id) => !checked.has(id));
      }
      for (const providerSessionId of space.evict) {
        await this.blobs.deleteBefore(`${RECORDINGS_PREFIX}${providerSessionId}/`, END_OF_TIME);
      }
      if (space.evict.length > 0)
        this.logger.warn(
          { ownerId, evicted: space.evict.length },
          'recording: removed an account’s oldest recordings for room',
        );
      return space.maxBytes;
    } catch (error) {
      this.logger.warn(
        { err: error },
        'recording: could not count the recordings kept; the per-session bound applies',
      );
      return this.maxBytes;
    }
  }

  /**
   * A recording for the session `providerSessionId`, bound to `maxBytes` (default `RECORDING_MAX_MB`);
   * `onCapped` is told once when the bound is reached. With `ownerId`, it notes whose it is and, in
   * the background (off the session's create), finds it room among the account's recordings
   * (`reserve`), lowering its bound to that. At most once an hour it also removes, in the
   * background, the recordings past retention.
   */
  start(
    providerSessionId: string,
    options: {
      ownerId?: string | undefined;
      maxBytes?: number | undefined;
      onCapped?: (() => void) | undefined;
    } = {},
  ): ScreencastRecording {
    const now = this.clock.now().getTime();
    if (now - this.lastSweep >= SWEEP_EVERY_MS) {
      this.lastSweep = now;
      this.blobs
        .deleteBefore(RECORDINGS_PREFIX, new Date(now - this.retentionDays * 86_400_000))
        .catch((error: unknown) =>
          this.logger.warn({ err: error }, 'recording: could not remove recordings past their retention'),
        );
    }
    this.active.add(providerSessionId);
    if (options.ownerId !== undefined) {
      this.blobs
        .put(ownerKey(providerSessionId, options.ownerId), new Uint8Array())
        .catch((error: unknown) =>
          this.logger.warn({ err: error }, 'recording: could not note whose a recording is'),
        );
    }
    const recording = new ScreencastRecording({
      blobs: this.blobs,
      providerSessionId,
      maxBytes: Math.min(options.maxBytes ?? this.maxBytes, this.maxBytes),
      maxFps: this.maxFps,
      logger: this.logger,
      onCapped: options.onCapped,
    });
    if (options.ownerId !== undefined) {
      void this.reserve(options.ownerId).then((room) => recording.limitTo(room));
    }
    return recording;
  }

  /**
   * Ends `recording` (resolves once its frames are in: the replay says `PROCESSING`) and queues the
   * making of its videos (`finish`), one session at a time, in the background. `idle` resolves once
   * the queue is empty.
   */
  async endAndMake(recording: ScreencastRecording): Promise<void> {
    await recording.end(this.clock.now().getTime());
    this.making = this.making.then(() => this.finish(recording));
  }

  /**
   * Resolves once every queued video is made (or failed), or after `maxWaitMs`: a shutdown waits
   * for the videos of the sessions it ended, within reason (what is left stays `PROCESSING`).
   */
  idle(maxWaitMs = Number.POSITIVE_INFINITY): Promise<void> {
    if (!Number.isFinite(maxWaitMs)) return this.making;
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, maxWaitMs);
    });
    return Promise.race([this.making, waited]).finally(() => clearTimeout(timer));
  }

  /**
   * Ends `recording` and makes each tab's video from its frames: `READY` once all are stored, or
   * `FAILED` with the reason (ffmpeg missing or failing). The frames are removed once the videos
   * are in. Never throws: a failure is in the manifest and the log.
   */
  async finish(recording: ScreencastRecording): Promise<void> {
    const { providerSessionId } = recording;
    try {
      await this.makeVideos(recording);
    } finally {
      this.active.delete(providerSessionId);
    }
  }

  private async makeVideos(recording: ScreencastRecording): Promise<void> {
    await this.makeVideosOf(recording.providerSessionId, await recording.end(this.clock.now().getTime()));
  }

  /** Makes the videos of an ended recording's manifest, stores them, and marks it READY or FAILED. */
  private async makeVideosOf(providerSessionId: string, manifest: RecordingManifest): Promise<void> {
    // A tab with no frame stored (none shown, or every write of its frames failed) has no video.
    manifest.pages = manifest.pages.filter((page) => page.chunks > 0);
    try {
      for (const page of manifest.pages) await this.makeTabVideo(providerSessionId, page, manifest.endedAtMs);
      manifest.state = 'READY';
      manifest.completedAt = this.clock.now().toISOString();
    } catch (error) {
      manifest.state = 'FAILED';
      manifest.error = error instanceof Error ? error.message : String(error);
      this.logger.warn({ err: error, providerSessionId }, 'recording: could not make a session’s videos');
    }
    try {
      await writeManifest(this.blobs, providerSessionId, manifest);
      if (manifest.state === 'READY') {
        for (const page of manifest.pages) {
          for (let chunk = 0; chunk < page.chunks; chunk++)
            await this.blobs.delete(frameChunkKey(providerSessionId, page.pageId, chunk));
        }
      }
    } catch (error) {
      this.logger.warn({ err: error, providerSessionId }, 'recording: could not store a session’s videos');
    }
  }

  async recording(providerSessionId: string): Promise<StoredRecording | null> {
    const manifest = await readManifest(this.blobs, providerSessionId);
    if (!manifest) return null;
    const downloadsRequested = (await this.blobs.get(downloadsKey(providerSessionId))) !== null;
    return {
      state: manifest.state,
      bytes: manifest.bytes,
      capped: manifest.capped,
      error: manifest.error,
      completedAt: manifest.completedAt === null ? null : new Date(manifest.completedAt),
      downloadsRequested,
      pages: manifest.pages.map(({ chunks: _, files: __, ...page }) => page),
    };
  }

  async file(providerSessionId: string, pageId: string, file: RecordingFile): Promise<Uint8Array | null> {
    const manifest = await readManifest(this.blobs, providerSessionId);
    const page = manifest?.pages.find((candidate) => candidate.pageId === pageId);
    if (!page?.files.includes(file)) return null;
    return this.blobs.get(videoFileKey(providerSessionId, pageId, file));
  }

  /**
   * Notes the downloads request, and makes the videos again (queued, as at a session's end) when
   * they could not be made (`FAILED`: ffmpeg was missing, say), or when they have been `PROCESSING`
   * for longer than `STALE_PROCESSING_MS` after the session ended (the instance that was making them
   * stopped): Browserbase's downloads create retries what failed. Their frames are still kept then.
   */
  async requestDownloads(providerSessionId: string): Promise<void> {
    await this.blobs.put(downloadsKey(providerSessionId), Buffer.from(this.clock.now().toISOString()));
    const manifest = await readManifest(this.blobs, providerSessionId);
    if (!manifest || manifest.endedAtMs === null) return;
    const stale = this.clock.now().getTime() - manifest.endedAtMs > STALE_PROCESSING_MS;
    const retry = manifest.state === 'FAILED' || (manifest.state === 'PROCESSING' && stale);
    if (!retry || this.active.has(providerSessionId)) return;
    this.active.add(providerSessionId);
    await writeManifest(this.blobs, providerSessionId, { ...manifest, state: 'PROCESSING', error: null });
    this.making = this.making.then(async () => {
      try {
        await this.makeVideosOf(providerSessionId, { ...manifest, error: null });
      } finally {
        this.active.delete(providerSessionId);
      }
    });
  }

  private async makeTabVideo(
    providerSessionId: string,
    page: ManifestPage,
    endedAtMs: number | null,
  ): Promise<void> {
    const outDir = await mkdtemp(join(tmpdir(), 'browserdeck-video-'));
    try {
      const made = await makeVideo({
        frames: readFrames(this.blobs, providerSessionId, page),
        endMs: page.endTimeMs ?? endedAtMs ?? this.clock.now().getTime(),
        outDir,
        ffmpegPath: this.ffmpegPath,
        maxFps: this.maxFps,
      });
      const files = await readdir(outDir);
      for (const file of files)
        await this.blobs.put(
          videoFileKey(providerSessionId, page.pageId, file),
          await readFile(join(outDir, file)),
        );
      page.files = files;
      page.width = made.width;
      page.height = made.height;
    } finally {
      await rm(outDir, { recursive: true, force: true });
    }
  }
}
