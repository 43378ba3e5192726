import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, open, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream';

/** One screencast frame: a JPEG and the wall-clock moment it was shown (ms since the epoch). */
export interface VideoFrame {
  readonly timestampMs: number;
  readonly jpeg: Uint8Array;
}

/** What makeVideo wrote into outDir. */
export interface MadeVideo {
  /** File name in outDir: `video.mp4` (H.264, yuv420p, `moov` first so it plays while downloading). */
  readonly mp4: string;
  /** `index.m3u8`: an HLS VOD playlist whose segments are referenced by bare file name. */
  readonly playlist: string;
  /** The playlist's segments, in order: `seg_000.ts`, `seg_001.ts`, … */
  readonly segments: readonly string[];
  /**
   * endMs − the first frame's timestampMs: how long the video runs. Longer only when the last frame
   * came so late (or endMs so early) that it needed one output frame of its own to be seen at all.
   */
  readonly durationMs: number;
  /** Of the output: the first frame's size rounded down to even numbers (H.264 with 4:2:0 needs them). */
  readonly width: number;
  readonly height: number;
}

/** ffmpeg could not be run at all (not installed, or `ffmpegPath`/`FFMPEG_PATH` points at nothing runnable). */
export class VideoToolMissing extends Error {
  override readonly name = 'VideoToolMissing';
  constructor(command: string, options?: ErrorOptions) {
    super(
      `cannot run ffmpeg (${command}) to make the session's video: install Debian's ffmpeg ` +
        '(apt-get install ffmpeg) or set FFMPEG_PATH to an ffmpeg with libx264',
      options,
    );
  }
}

/** The output frame rate when the caller names none: screen recordings change little between frames. */
const DEFAULT_MAX_FPS = 10;
/** Keyframe spacing and HLS segment length, in seconds: a player can seek to any 2 s mark. */
const SEGMENT_SECONDS = 2;
/** How much of an ffmpeg's stderr is kept for the error message (it is small with `-loglevel error`). */
const STDERR_TAIL_CHARS = 4000;
const STDERR_TAIL_LINES = 10;

const MP4 = 'video.mp4';
const PLAYLIST = 'index.m3u8';
const SEGMENT_PATTERN = 'seg_%03d.ts';
const FRAME_LIST = 'frames.ffconcat';

/**
 * Turns a tab's screencast into an MP4 and an HLS VOD of it, in `outDir`.
 *
 * A screencast is variable-frame-rate: Chrome sends a frame only when the page changes, so a page that
 * stays still for 2 s and then changes sends two frames 2 s apart. Players and HLS want a constant
 * rate, and the change must still show at its real moment. So each frame is written to a work
 * directory as it arrives (frames are never all held in memory), with a concat-demuxer list that gives
 * every frame how long it stayed on screen (the next frame's timestamp − its own; the last one stays
 * until `endMs`); the `fps` filter then samples that timeline at `maxFps`, repeating a frame for as
 * long as it was shown. Timestamps that repeat or go back are moved just after the previous frame
 * (1 ms), so the list stays strictly increasing.
 *
 * ffmpeg runs three times, without a shell: one decodes the frames and fits each to the first frame's
 * size, piped into one that encodes H.264 at the constant rate (keyframes every 2 s, `+faststart`),
 * then one that cuts the MP4 into 2 s HLS segments without re-encoding. Throws {@link VideoToolMissing} when ffmpeg cannot be
 * run, an Error with the end of ffmpeg's stderr when it fails, and the signal's reason when aborted
 * (the running ffmpeg is killed). Zero frames is an Error: there is nothing to show.
 */
export async function makeVideo(input: {
  /** In timestamp order; streamed to temp files as they come, never all held in memory. */
  frames: AsyncIterable<VideoFrame>;
  /** The tab's end: the last frame stays on screen until then. */
  endMs: number;
  /** An existing empty directory to write the outputs into. */
  outDir: string;
  /** Default `process.env.FFMPEG_PATH ?? 'ffmpeg'`. */
  ffmpegPath?: string | undefined;
  /** Output frame rate (constant), default 10. */
  maxFps?: number | undefined;
  signal?: AbortSignal | undefined;
}): Promise<MadeVideo> {
  const { outDir, signal } = input;
  const ffmpeg = input.ffmpegPath ?? process.env.FFMPEG_PATH ?? 'ffmpeg';
  const fps = input.maxFps ?? DEFAULT_MAX_FPS;
  if (!Number.isFinite(fps) || fps <= 0) throw new Error(`maxFps must be a positive number, not ${fps}`);
  if (!Number.isFinite(input.endMs)) throw new Error(`endMs must be a time in ms, not ${input.endMs}`);
  signal?.throwIfAborted();
  const work = await mkdtemp(join(tmpdir(), 'browserdeck-video-'));
  try {
    const timeline = await writeFrameList(input.frames, input.endMs, fps, work, signal);
    const width = evenDown(timeline.firstSize.width);
    const height = evenDown(timeline.firstSize.height);
    await runPipeline(
      { command: ffmpeg, args: fitFramesArgs(width, height), cwd: work, stage: 'fitting the frames' },
      { command: ffmpeg, args: encodeArgs(fps, timeline.durationMs), cwd: outDir, stage: 'encoding the MP4' },
      signal,
    );
    await runFfmpeg(
      { command: ffmpeg, args: hlsArgs(), cwd: outDir, stage: 'cutting the HLS segments' },
      signal,
    );
    const segments = playlistSegments(await readFile(join(outDir, PLAYLIST), 'utf8'));
    return { mp4: MP4, playlist: PLAYLIST, segments, durationMs: timeline.durationMs, width, height };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** What writing the frames found out: the size the video takes, and how long it runs. */
interface FrameTimeline {
  readonly firstSize: JpegSize;
  readonly durationMs: number;
}

/**
 * Writes each frame as `f000001.jpg`, … and the ffconcat list of them, one frame behind (a frame's
 * duration is known when the next one comes). Times are whole ms from the first frame, so the
 * durations add up exactly to each frame's start (rounding each duration would drift over an hour).
 */
async function writeFrameList(
  frames: AsyncIterable<VideoFrame>,
  endMs: number,
  fps: number,
  work: string,
  signal: AbortSignal | undefined,
): Promise<FrameTimeline> {
  const list = await open(join(work, FRAME_LIST), 'w');
  try {
    await list.write('ffconcat version 1.0\n');
    let first: { readonly timestampMs: number; readonly size: JpegSize } | undefined;
    let last: { readonly file: string; readonly atMs: number } | undefined;
    let count = 0;
    for await (const frame of abortable(frames, signal)) {
      count += 1;
      const file = `f${String(count).padStart(6, '0')}.jpg`;
      if (!first) first = { timestampMs: frame.timestampMs, size: firstFrameSize(frame.jpeg) };
      const relativeMs = Math.round(frame.timestampMs - first.timestampMs);
      const atMs = last ? Math.max(relativeMs, last.atMs + 1) : 0;
      await writeFile(join(work, file), frame.jpeg, { signal });
      if (last) await list.write(frameEntry(last.file, atMs - last.atMs));
      last = { file, atMs };
    }
    if (!first || !last)
      throw new Error('makeVideo needs at least one frame: a video of nothing cannot be made');
    // The last frame shows until the tab's end, and for at least one output frame: shorter, the fps
    // filter would end the video before its slot and the page's last state would never be seen.
    const untilEndMs = Math.round(endMs - first.timestampMs) - last.atMs;
    const lastMs = Math.max(untilEndMs, Math.ceil(1000 / fps));
    await list.write(frameEntry(last.file, lastMs));
    // The concat demuxer ignores the last entry's duration: the last frame is listed once more, so
    // the stream has a frame at the end time and the one before it lasts until then.
    await list.write(frameEntry(last.file, undefined));
    return { firstSize: first.size, durationMs: last.atMs + lastMs };
  } finally {
    await list.close();
  }
}

/**
 * One ffconcat entry. `option framerate 1000` gives the image demuxer a 1 ms time base: its default
 * (25 fps) would round every timestamp to 40 ms. (`option` needs `-safe 0`; the list is ours.)
 */
function frameEntry(file: string, durationMs: number | undefined): string {
  const duration = durationMs === undefined ? '' : `duration ${(durationMs / 1000).toFixed(3)}\n`;
  return `file '${file}'\noption framerate 1000\n${duration}`;
}

/**
 * ffmpeg's first run: the frames at their own moments (`-fps_mode passthrough`), each fitted into
 * width×height (scaled down keeping its aspect, letterboxed in black), as raw video in NUT on stdout.
 * It is a run of its own because ffmpeg rebuilds the filter graph when the frame size changes (a
 * resized viewport), and a rebuilt `fps` filter drops the frame it was holding: the frames before the
 * resize would vanish from the video. Here the graph holds no frame, and the next run sees one size.
 */
function fitFramesArgs(width: number, height: number): string[] {
  const fit =
    `scale=${width}:${height}:force_original_aspect_ratio=decrease:force_divisible_by=2,` +
    `pad=${width}:${height}:(ow-iw)/2:(oh-ih)/2,setsar=1,format=yuv420p`;
  return [
    ...['-loglevel', 'error', '-nostdin', '-safe', '0', '-f', 'concat', '-i', FRAME_LIST],
    ...['-vf', fit, '-fps_mode', 'passthrough', '-c:v', 'rawvideo', '-f', 'nut', 'pipe:1'],
  ];
}

/**
 * ffmpeg's second run: the `fps` filter turns the variable-rate frames into a constant `fps` (each
 * output frame shows the latest frame at its moment), H.264 for every player, keyframes every 2 s for
 * seeking and HLS cuts, and `+faststart` so the `moov` index comes before the media data. `trim`
 * ends the video at its end time: the raw frames carry no durations, so `fps` would hold the last one
 * for as long as ffmpeg guesses from the stream's rate (a whole second, say). It cuts inside the
 * filter graph, after all input is read: an output `-t` would close the pipe before the first run
 * has written its trailer, and fail it.
 */
function encodeArgs(fps: number, durationMs: number): string[] {
  const constantRate = `fps=${fps},trim=end=${(durationMs / 1000).toFixed(3)}`;
  return [
    ...['-loglevel', 'error', '-nostdin', '-y', '-f', 'nut', '-i', 'pipe:0', '-vf', constantRate],
    ...['-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p'],
    ...['-force_key_frames', `expr:gte(t,n_forced*${SEGMENT_SECONDS})`],
    ...['-movflags', '+faststart', '-f', 'mp4', MP4],
  ];
}

/** ffmpeg's third run: the MP4 cut at its keyframes into 2 s MPEG-TS segments, copied, not re-encoded. */
function hlsArgs(): string[] {
  return [
    ...['-loglevel', 'error', '-nostdin', '-y', '-i', MP4, '-c', 'copy', '-f', 'hls'],
    ...['-hls_time', String(SEGMENT_SECONDS), '-hls_playlist_type', 'vod'],
    ...['-hls_segment_filename', SEGMENT_PATTERN, PLAYLIST],
  ];
}

/** The segment file names of an HLS playlist: its lines that are neither tags nor blank. */
function playlistSegments(playlist: string): string[] {
  return playlist
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

/** One ffmpeg run: what to run, where (relative names in the arguments resolve there), and what for. */
interface FfmpegRun {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  /** For error messages: what this run was doing. */
  readonly stage: string;
}

/** A started ffmpeg and its end: resolves on exit 0, rejects with the error to throw otherwise. */
interface StartedFfmpeg {
  readonly child: ChildProcess;
  readonly done: Promise<void>;
}

async function runFfmpeg(run: FfmpegRun, signal: AbortSignal | undefined): Promise<void> {
  await startFfmpeg(run, ['ignore', 'ignore', 'pipe'], signal).done;
}

/**
 * Two ffmpeg runs with the first one's stdout piped into the second one's stdin. When one fails the
 * other ends too (a closed pipe, or end of input), and both are awaited: the second may exit 0 on a
 * cut-off input, so the first one's exit code counts as much as its own.
 */
async function runPipeline(from: FfmpegRun, to: FfmpegRun, signal: AbortSignal | undefined): Promise<void> {
  const producer = startFfmpeg(from, ['ignore', 'pipe', 'pipe'], signal);
  const consumer = startFfmpeg(to, ['pipe', 'ignore', 'pipe'], signal);
  const { stdout } = producer.child;
  const { stdin } = consumer.child;
  // pipeline() destroys both ends when either fails, so the producer is never left blocked on a full
  // pipe; its error is only the symptom (EPIPE) of a failure the exit codes tell.
  if (stdout && stdin) pipeline(stdout, stdin, () => {});
  const results = await Promise.allSettled([producer.done, consumer.done]);
  const errors = results.flatMap((result) => (result.status === 'rejected' ? [result.reason] : []));
  if (errors.length === 0) return;
  if (signal?.aborted) throw signal.reason;
  const missing = errors.find((error) => error instanceof VideoToolMissing);
  if (missing) throw missing;
  if (errors.length === 1) throw errors[0];
  throw new Error(
    errors.map((error) => (error instanceof Error ? error.message : String(error))).join('\n'),
    {
      cause: errors[0],
    },
  );
}

function startFfmpeg(
  run: FfmpegRun,
  stdio: ['ignore' | 'pipe', 'ignore' | 'pipe', 'pipe'],
  signal: AbortSignal | undefined,
): StartedFfmpeg {
  // SIGKILL on abort: the outputs are thrown away, so there is nothing for ffmpeg to finish.
  const child = spawn(run.command, run.args, { cwd: run.cwd, stdio, signal, killSignal: 'SIGKILL' });
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-STDERR_TAIL_CHARS);
  });
  const done = new Promise<void>((resolve, reject) => {
    child.once('error', (error: NodeJS.ErrnoException) => {
      if (signal?.aborted) reject(signal.reason);
      else if (error.code === 'ENOENT' || error.code === 'EACCES')
        reject(new VideoToolMissing(run.command, { cause: error }));
      else reject(error);
    });
    child.once('close', (code, killedBy) => {
      if (signal?.aborted) reject(signal.reason);
      else if (code === 0) resolve();
      else reject(new Error(ffmpegFailure(run.stage, code, killedBy, stderr)));
    });
  });
  return { child, done };
}

function ffmpegFailure(stage: string, code: number | null, killedBy: NodeJS.Signals | null, stderr: string) {
  const how = code === null ? `was killed by ${killedBy}` : `exited with code ${code}`;
  const tail = stderr.trim().split('\n').slice(-STDERR_TAIL_LINES).join('\n');
  return `ffmpeg ${how} while ${stage}${tail ? `:\n${tail}` : ' (no output on stderr)'}`;
}

/**
 * The frames of `source` until `signal` aborts: then it throws the signal's reason at once, even while
 * the source is still waiting for its next frame (a tab that no longer changes sends none).
 */
async function* abortable<T>(source: AsyncIterable<T>, signal: AbortSignal | undefined): AsyncGenerator<T> {
  if (!signal) {
    yield* source;
    return;
  }
  const iterator = source[Symbol.asyncIterator]();
  let onAbort = (): void => {};
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
  });
  aborted.catch(() => {});
  signal.addEventListener('abort', onAbort, { once: true });
  let finished = false;
  try {
    for (;;) {
      signal.throwIfAborted();
      const next = await Promise.race([iterator.next(), aborted]);
      if (next.done) {
        finished = true;
        return;
      }
      yield next.value;
    }
  } finally {
    signal.removeEventListener('abort', onAbort);
    // Not awaited: a source blocked in next() answers return() only once that next() is over.
    if (!finished) iterator.return?.().catch(() => {});
  }
}

/** A JPEG's size in pixels, from its frame header. */
interface JpegSize {
  readonly width: number;
  readonly height: number;
}

function firstFrameSize(jpeg: Uint8Array): JpegSize {
  const size = jpegSize(jpeg);
  if (!size) throw new Error('the first screencast frame is not a JPEG with a frame header (SOF)');
  return size;
}

/**
 * The size in a JPEG's start-of-frame (SOF0–SOF15) segment, found by walking the segments from the
 * start of the image; undefined when it is not a JPEG or the scan starts before any frame header.
 */
function jpegSize(jpeg: Uint8Array): JpegSize | undefined {
  const view = new DataView(jpeg.buffer, jpeg.byteOffset, jpeg.byteLength);
  if (view.byteLength < 4 || view.getUint16(0) !== 0xffd8) return undefined;
  let at = 2;
  while (at + 4 <= view.byteLength) {
    if (view.getUint8(at) !== 0xff) return undefined;
    const marker = view.getUint8(at + 1);
    if (marker === 0xff) {
      at += 1; // fill byte before a marker
    } else if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
      at += 2; // markers without a length: TEM, RSTn, SOI
    } else if (marker === 0xd9 || marker === 0xda) {
      return undefined; // end of image, or start of scan, before any frame header
    } else if (isStartOfFrame(marker)) {
      if (at + 9 > view.byteLength) return undefined;
      const height = view.getUint16(at + 5);
      const width = view.getUint16(at + 7);
      return width > 0 && height > 0 ? { width, height } : undefined;
    } else {
      at += 2 + view.getUint16(at + 2);
    }
  }
  return undefined;
}

/** SOF0–SOF15 are 0xC0–0xCF, except DHT (0xC4), JPG (0xC8) and DAC (0xCC) in their midst. */
function isStartOfFrame(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

/** Rounded down to even, at least 2: libx264 with 4:2:0 chroma needs even sizes. */
function evenDown(pixels: number): number {
  return Math.max(2, pixels - (pixels % 2));
}
