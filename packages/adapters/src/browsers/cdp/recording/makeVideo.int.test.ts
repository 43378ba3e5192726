import { execFile } from 'node:child_process';
import { access, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MadeVideo, makeVideo, type VideoFrame, VideoToolMissing } from './makeVideo.ts';
import { pixelAt, probe, topLevelBoxes } from './testing/videoProbe.ts';

const run = promisify(execFile);
const FFMPEG = process.env.FFMPEG_PATH ?? 'ffmpeg';
const T0 = 1_760_000_000_000;

const dirs: string[] = [];
/** makeVideo's work directories that were there before these tests (another run's, say). */
let workDirsBefore = new Set<string>();

async function workDirs(): Promise<string[]> {
  return (await readdir(tmpdir())).filter((name) => name.startsWith('browserdeck-video-'));
}
const jpegs: Record<string, Uint8Array> = {};

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'makeVideo-test-'));
  dirs.push(dir);
  return dir;
}

/** A one-colour JPEG, made by ffmpeg itself. */
async function colourJpeg(dir: string, colour: string, size: string): Promise<Uint8Array> {
  const file = join(dir, `${colour}-${size}.jpg`);
  await run(
    FFMPEG,
    ['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', `color=c=${colour}:s=${size}`].concat([
      '-frames:v',
      '1',
      file,
    ]),
  );
  return readFile(file);
}

async function* framesOf(...frames: VideoFrame[]): AsyncGenerator<VideoFrame> {
  for (const frame of frames) yield frame;
}

beforeAll(async () => {
  workDirsBefore = new Set(await workDirs());
  const dir = await tempDir();
  jpegs.red = await colourJpeg(dir, 'red', '320x240');
  jpegs.blue = await colourJpeg(dir, 'blue', '320x240');
  jpegs.wideGreen = await colourJpeg(dir, 'green', '640x360');
  jpegs.oddYellow = await colourJpeg(dir, 'yellow', '321x241');
});

afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('a page red for 2 s, then blue until 4 s', () => {
  let outDir = '';
  let made: MadeVideo;
  let encodeMs = 0;

  beforeAll(async () => {
    outDir = await tempDir();
    const started = performance.now();
    made = await makeVideo({
      frames: framesOf({ timestampMs: T0, jpeg: jpegs.red! }, { timestampMs: T0 + 2000, jpeg: jpegs.blue! }),
      endMs: T0 + 4000,
      outDir,
    });
    encodeMs = performance.now() - started;
    console.log(`makeVideo of 4 s took ${encodeMs.toFixed(0)} ms`);
  });

  it('says what it wrote', () => {
    expect(made).toEqual({
      mp4: 'video.mp4',
      playlist: 'index.m3u8',
      segments: ['seg_000.ts', 'seg_001.ts'],
      durationMs: 4000,
      width: 320,
      height: 240,
    });
  });

  it('shows the change at its real moment: red at 1 s, blue at 3 s', async () => {
    const mp4 = join(outDir, made.mp4);
    const atOne = await pixelAt(mp4, 1, 160, 120, 320);
    expect(atOne.r).toBeGreaterThan(200);
    expect(atOne.b).toBeLessThan(50);
    const atThree = await pixelAt(mp4, 3, 160, 120, 320);
    expect(atThree.b).toBeGreaterThan(200);
    expect(atThree.r).toBeLessThan(50);
  });

  it('is H.264 yuv420p 320x240 of about 4 s', async () => {
    const { streams, format } = await probe(join(outDir, made.mp4));
    expect(streams).toHaveLength(1);
    expect(streams[0]).toMatchObject({ codec_name: 'h264', pix_fmt: 'yuv420p', width: 320, height: 240 });
    expect(Math.abs(Number(format.duration) - 4)).toBeLessThanOrEqual(0.3);
  });

  it('puts the moov box before mdat (+faststart)', async () => {
    const boxes = topLevelBoxes(await readFile(join(outDir, made.mp4)));
    expect(boxes).toContain('moov');
    expect(boxes).toContain('mdat');
    expect(boxes.indexOf('moov')).toBeLessThan(boxes.indexOf('mdat'));
  });

  it('writes an HLS VOD playlist of existing segments that reads as the same 4 s', async () => {
    const playlist = await readFile(join(outDir, made.playlist), 'utf8');
    expect(playlist).toContain('#EXT-X-PLAYLIST-TYPE:VOD');
    expect(playlist).toContain('#EXT-X-ENDLIST');
    const listed = playlist.split('\n').filter((line) => line !== '' && !line.startsWith('#'));
    expect(listed).toEqual(made.segments);
    for (const segment of made.segments) await expect(access(join(outDir, segment))).resolves.toBeUndefined();
    const { streams, format } = await probe(join(outDir, made.playlist));
    expect(streams.map((stream) => stream.codec_name)).toEqual(['h264']);
    expect(Math.abs(Number(format.duration) - 4)).toBeLessThanOrEqual(0.3);
  });
});

describe('frames of another size', () => {
  it('fits a wider frame into the first size, letterboxed, and loses no frame around it', async () => {
    const outDir = await tempDir();
    const made = await makeVideo({
      frames: framesOf(
        { timestampMs: T0, jpeg: jpegs.red! },
        { timestampMs: T0 + 1000, jpeg: jpegs.wideGreen! },
        { timestampMs: T0 + 2000, jpeg: jpegs.blue! },
      ),
      endMs: T0 + 3000,
      outDir,
    });
    const mp4 = join(outDir, made.mp4);
    expect(made).toMatchObject({ width: 320, height: 240, durationMs: 3000 });
    const { streams, format } = await probe(mp4);
    expect(streams[0]).toMatchObject({ width: 320, height: 240 });
    expect(Math.abs(Number(format.duration) - 3)).toBeLessThanOrEqual(0.3);
    expect((await pixelAt(mp4, 0.5, 160, 120, 320)).r).toBeGreaterThan(200);
    const centre = await pixelAt(mp4, 1.5, 160, 120, 320);
    expect(centre.g).toBeGreaterThan(100);
    expect(centre.r).toBeLessThan(50);
    // 640x360 fitted into 320x240 is 320x180 with 30 rows of black above and below, not stretched.
    const top = await pixelAt(mp4, 1.5, 160, 5, 320);
    expect(top.r + top.g + top.b).toBeLessThan(40);
    expect((await pixelAt(mp4, 2.5, 160, 120, 320)).b).toBeGreaterThan(200);
  });

  it('rounds an odd first size down to even', async () => {
    const outDir = await tempDir();
    const made = await makeVideo({
      frames: framesOf({ timestampMs: T0, jpeg: jpegs.oddYellow! }),
      endMs: T0 + 1000,
      outDir,
    });
    expect(made).toMatchObject({ width: 320, height: 240 });
    expect((await probe(join(outDir, made.mp4))).streams[0]).toMatchObject({ width: 320, height: 240 });
  });
});

describe('timestamps', () => {
  it('takes repeated and backward timestamps without crashing, keeping the wall-clock timeline', async () => {
    const outDir = await tempDir();
    const made = await makeVideo({
      frames: framesOf(
        { timestampMs: T0, jpeg: jpegs.red! },
        { timestampMs: T0, jpeg: jpegs.red! },
        { timestampMs: T0 + 1000, jpeg: jpegs.red! },
        { timestampMs: T0 + 500, jpeg: jpegs.red! },
        { timestampMs: T0 + 2000, jpeg: jpegs.blue! },
      ),
      endMs: T0 + 3000,
      outDir,
    });
    expect(made.durationMs).toBe(3000);
    const mp4 = join(outDir, made.mp4);
    expect((await pixelAt(mp4, 1.5, 160, 120, 320)).r).toBeGreaterThan(200);
    expect((await pixelAt(mp4, 2.5, 160, 120, 320)).b).toBeGreaterThan(200);
  });

  it('places a change to the ms, not on the 40 ms grid of the image demuxer', async () => {
    // At 1055 ms the change belongs to the output frame at 1.1 s (10.55 rounds up); rounded to 40 ms
    // (1040 ms) it would show one frame early, at 1.0 s.
    const outDir = await tempDir();
    const made = await makeVideo({
      frames: framesOf({ timestampMs: T0, jpeg: jpegs.red! }, { timestampMs: T0 + 1055, jpeg: jpegs.blue! }),
      endMs: T0 + 2000,
      outDir,
    });
    const mp4 = join(outDir, made.mp4);
    expect((await pixelAt(mp4, 0.95, 160, 120, 320)).r).toBeGreaterThan(200);
    expect((await pixelAt(mp4, 1.05, 160, 120, 320)).b).toBeGreaterThan(200);
  });

  it('shows a last frame that came just before the end for at least one output frame', async () => {
    const outDir = await tempDir();
    const made = await makeVideo({
      frames: framesOf({ timestampMs: T0, jpeg: jpegs.red! }, { timestampMs: T0 + 2000, jpeg: jpegs.blue! }),
      endMs: T0 + 2001,
      outDir,
    });
    expect(made.durationMs).toBe(2100);
    const { format } = await probe(join(outDir, made.mp4));
    expect(Math.abs(Number(format.duration) - 2.1)).toBeLessThanOrEqual(0.05);
    expect((await pixelAt(join(outDir, made.mp4), 2, 160, 120, 320)).b).toBeGreaterThan(200);
  });
});

describe('failures', () => {
  it('rejects with VideoToolMissing when ffmpeg cannot be run', async () => {
    const made = makeVideo({
      frames: framesOf({ timestampMs: T0, jpeg: jpegs.red! }),
      endMs: T0 + 1000,
      outDir: await tempDir(),
      ffmpegPath: '/nonexistent/ffmpeg',
    });
    await expect(made).rejects.toBeInstanceOf(VideoToolMissing);
    await expect(made).rejects.toThrow(/FFMPEG_PATH/);
  });

  it('rejects zero frames with a clear error', async () => {
    const made = makeVideo({ frames: framesOf(), endMs: T0, outDir: await tempDir() });
    await expect(made).rejects.toThrow(/at least one frame/);
  });

  it('stops when aborted, even while waiting for the next frame', async () => {
    const controller = new AbortController();
    async function* stillPage(): AsyncGenerator<VideoFrame> {
      yield { timestampMs: T0, jpeg: jpegs.red! };
      await new Promise(() => {}); // the page never changes again
    }
    const made = makeVideo({
      frames: stillPage(),
      endMs: T0 + 1000,
      outDir: await tempDir(),
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 50);
    await expect(made).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('leaves no work directory behind, after success or failure', async () => {
    expect((await workDirs()).filter((name) => !workDirsBefore.has(name))).toEqual([]);
  });
});
