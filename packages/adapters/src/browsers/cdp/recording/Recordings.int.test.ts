import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type Logger, silentLogger } from '@browserdeck/domain';
import { ManualClock } from '@browserdeck/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { InMemoryBlobStore } from '../../shared-state/InMemoryBlobStore.ts';
import { Recordings } from './Recordings.ts';
import { encodeFrame } from './recordingStore.ts';
import { pixelAt } from './testing/videoProbe.ts';

const run = promisify(execFile);
const FFMPEG = process.env.FFMPEG_PATH ?? 'ffmpeg';
const T0 = Date.parse('2026-03-02T10:15:00.000Z');
const DAY_MS = 86_400_000;

const dirs: string[] = [];
let red: Uint8Array;
let blue: Uint8Array;

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'Recordings-test-'));
  dirs.push(dir);
  return dir;
}

/** A one-colour 320x240 JPEG, made by ffmpeg itself. */
async function colourJpeg(dir: string, colour: string): Promise<Uint8Array> {
  const file = join(dir, `${colour}.jpg`);
  await run(
    FFMPEG,
    ['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', `color=c=${colour}:s=320x240`].concat([
      '-frames:v',
      '1',
      file,
    ]),
  );
  return readFile(file);
}

/** The RGB of the centre pixel of the frame `video` (a 320x240 MP4's bytes) shows at `seconds`. */
async function centreAt(video: Uint8Array, seconds: number) {
  const file = join(await tempDir(), 'video.mp4');
  await writeFile(file, video);
  return pixelAt(file, seconds, 160, 120, 320);
}

async function durationOf(video: Uint8Array): Promise<number> {
  const file = join(await tempDir(), 'probe.mp4');
  await writeFile(file, video);
  const { stdout } = await run('ffprobe', ['-v', 'error', '-show_format', '-of', 'json', file]);
  return Number((JSON.parse(stdout) as { format: { duration: string } }).format.duration);
}

function isRed(pixel: { r: number; g: number; b: number }): boolean {
  return pixel.r > 200 && pixel.g < 60 && pixel.b < 60;
}

function isBlue(pixel: { r: number; g: number; b: number }): boolean {
  return pixel.b > 200 && pixel.r < 60 && pixel.g < 60;
}

/** A screencast frame as the recorder hands it over: the device's size, not the JPEG's. */
function frameOf(jpeg: Uint8Array, timestampMs: number) {
  return { jpeg, timestampMs, width: 800, height: 600 };
}

function setUp(
  options: {
    ffmpegPath?: string;
    maxBytes?: number;
    maxTotalBytes?: number;
    maxBytesPerOwner?: number;
    logger?: Logger;
    start?: number;
  } = {},
) {
  const clock = new ManualClock(new Date(options.start ?? T0));
  const blobs = new InMemoryBlobStore({ clock });
  const recordings = new Recordings({
    blobs,
    clock,
    logger: options.logger ?? silentLogger,
    maxBytes: options.maxBytes,
    maxTotalBytes: options.maxTotalBytes,
    maxBytesPerOwner: options.maxBytesPerOwner,
    ffmpegPath: options.ffmpegPath,
  });
  return { clock, blobs, recordings };
}

function frameKeys(blobs: InMemoryBlobStore, providerSessionId: string): string[] {
  return blobs
    .keys()
    .filter((key) => key.startsWith(`recordings/${providerSessionId}/`) && key.includes('/frames/'));
}

beforeAll(async () => {
  const dir = await tempDir();
  red = await colourJpeg(dir, 'red');
  blue = await colourJpeg(dir, 'blue');
});

afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('room among all recordings, with a share per account', () => {
  /** A finished recording of `ownerId` holding one red frame's video. */
  async function recorded(recordings: Recordings, clock: ManualClock, id: string, ownerId: string) {
    const recording = recordings.start(id, { ownerId, maxBytes: await recordings.reserve(ownerId) });
    recording.tabOpened('0', { url: 'https://example.test/', title: '' }, clock.now().getTime());
    recording.frame('0', frameOf(red, clock.now().getTime()));
    clock.advance(1000);
    await recordings.endAndMake(recording);
    await recordings.idle();
    clock.advance(1000);
    return (await recordings.recording(id))?.state;
  }
  const bytesOf = async (blobs: InMemoryBlobStore, id: string) =>
    (await blobs.list(`recordings/${id}/`)).reduce((sum, blob) => sum + blob.bytes, 0);

  it('removes the account’s own oldest recordings past its share, never another account’s', async () => {
    const probe = setUp();
    expect(await recorded(probe.recordings, probe.clock, 'probe', 'x')).toBe('READY');
    const one = await bytesOf(probe.blobs, 'probe');
    // Room for two of a's recordings (and a new one's bound of one), four in all.
    const { clock, recordings } = setUp({
      maxBytes: one,
      maxBytesPerOwner: 2 * one + 1,
      maxTotalBytes: 4 * one + 1,
    });
    expect(await recorded(recordings, clock, 'b1', 'b')).toBe('READY');
    expect(await recorded(recordings, clock, 'a1', 'a')).toBe('READY');
    expect(await recorded(recordings, clock, 'a2', 'a')).toBe('READY');
    expect(await recorded(recordings, clock, 'a3', 'a')).toBe('READY');
    expect(await recordings.recording('a1')).toBeNull();
    expect(await recordings.recording('a2')).not.toBeNull();
    expect(await recordings.recording('b1')).not.toBeNull();
  });

  it('gives a newcomer no room when the others fill the total: its recording keeps nothing and says capped', async () => {
    const probe = setUp();
    expect(await recorded(probe.recordings, probe.clock, 'probe', 'x')).toBe('READY');
    const one = await bytesOf(probe.blobs, 'probe');
    const { clock, recordings } = setUp({ maxBytes: one, maxBytesPerOwner: one + 1, maxTotalBytes: 2 * one });
    expect(await recorded(recordings, clock, 'b1', 'b')).toBe('READY');
    expect(await recorded(recordings, clock, 'c1', 'c')).toBe('READY');
    expect(await recordings.reserve('a')).toBe(0);
    const onCapped = vi.fn();
    const recording = recordings.start('a1', { ownerId: 'a', maxBytes: 0, onCapped });
    recording.tabOpened('0', { url: 'https://example.test/', title: '' }, clock.now().getTime());
    recording.frame('0', frameOf(red, clock.now().getTime()));
    expect(onCapped).toHaveBeenCalledTimes(1);
    expect(await recordings.recording('b1')).not.toBeNull();
    expect(await recordings.recording('c1')).not.toBeNull();
  });
});

describe('the frame-rate cap (10 a second per tab)', () => {
  it('holds a frame sooner than 100 ms after the last one, keeps the newest at the gap’s end, and keeps a held one at the end', async () => {
    const { clock, recordings } = setUp();
    const id = 'capped-rate';
    const recording = recordings.start(id);
    recording.tabOpened('0', { url: 'https://example.test/', title: 'Example' }, T0);
    recording.frame('0', frameOf(red, T0));
    // Two within the gap: the second replaces the first, and is kept 100 ms after the last kept frame.
    recording.frame('0', frameOf(blue, T0 + 20));
    recording.frame('0', frameOf(red, T0 + 40));
    await new Promise((resolve) => setTimeout(resolve, 150));
    // One more within the next gap, still held when the session ends: kept then.
    recording.frame('0', frameOf(blue, T0 + 120));
    clock.advance(4000);
    await recordings.endAndMake(recording);
    await recordings.idle();
    const stored = await recordings.recording(id);
    expect(stored?.state).toBe('READY');
    expect(stored?.pages[0]?.frames).toBe(3);
  });
});

describe('a tab red for 2 s, then blue until the session ends at 4 s', () => {
  it('says RECORDING from its start, then makes the tab’s video once it ended and removes the frames', async () => {
    const { clock, blobs, recordings } = setUp();
    const id = 'session-one';
    const recording = recordings.start(id);
    await new Promise((resolve) => setImmediate(resolve));
    expect(await recordings.recording(id)).toEqual({
      state: 'RECORDING',
      bytes: 0,
      capped: false,
      error: null,
      completedAt: null,
      downloadsRequested: false,
      pages: [],
    });

    recording.tabOpened('0', { url: 'https://example.test/', title: 'Example' }, T0);
    recording.frame('0', frameOf(red, T0));
    recording.frame('0', frameOf(blue, T0 + 2000));
    clock.advance(4000);
    await recordings.endAndMake(recording);

    const processing = await recordings.recording(id);
    expect(processing?.state).toBe('PROCESSING');
    expect(processing?.pages).toMatchObject([{ pageId: '0', frames: 2, width: 800, height: 600 }]);
    expect(frameKeys(blobs, id)).not.toEqual([]);

    clock.advance(1500);
    await recordings.idle();
    const ready = await recordings.recording(id);
    expect(ready?.state).toBe('READY');
    expect(ready?.error).toBeNull();
    expect(ready?.completedAt).toEqual(new Date(T0 + 5500));
    expect(ready?.bytes).toBe(encodeFrame(T0, red).byteLength + encodeFrame(T0 + 2000, blue).byteLength);
    expect(ready?.pages).toEqual([
      {
        pageId: '0',
        url: 'https://example.test/',
        title: 'Example',
        startTimeMs: T0,
        endTimeMs: T0 + 4000,
        width: 320,
        height: 240,
        frames: 2,
        bytes: ready?.bytes,
      },
    ]);
    expect(frameKeys(blobs, id)).toEqual([]);

    const mp4 = await recordings.file(id, '0', 'video.mp4');
    expect(mp4).not.toBeNull();
    expect(Buffer.from(mp4!).toString('latin1', 4, 8)).toBe('ftyp');
    expect(isRed(await centreAt(mp4!, 1))).toBe(true);
    expect(isBlue(await centreAt(mp4!, 3))).toBe(true);
    expect(Math.abs((await durationOf(mp4!)) - 4)).toBeLessThanOrEqual(0.3);

    const playlist = await recordings.file(id, '0', 'index.m3u8');
    const text = Buffer.from(playlist ?? new Uint8Array()).toString('utf8');
    expect(text).toContain('#EXTM3U');
    expect(text).toContain('#EXT-X-ENDLIST');
    const segments = text.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('#'));
    expect(segments.length).toBeGreaterThan(0);
    for (const segment of segments) {
      expect(segment).toMatch(/^seg_\d+\.ts$/);
      const bytes = await recordings.file(id, '0', segment as `seg_${string}.ts`);
      expect(bytes?.[0]).toBe(0x47); // the MPEG-TS sync byte
    }

    expect(await recordings.file(id, '1', 'video.mp4')).toBeNull();
    expect(await recordings.file(id, '0', 'seg_999.ts')).toBeNull();
    expect(await recordings.file('no-such-session', '0', 'video.mp4')).toBeNull();
  });
});

describe('tabs', () => {
  it('makes one video per tab that showed frames, and leaves out a tab that showed none', async () => {
    const { clock, blobs, recordings } = setUp();
    const recording = recordings.start('two-tabs');
    recording.tabOpened('0', { url: 'https://first.test/', title: 'First' }, T0);
    recording.frame('0', frameOf(red, T0));
    recording.frame('0', frameOf(blue, T0 + 2000));
    recording.tabOpened('1', { url: 'https://second.test/', title: 'Second' }, T0 + 1000);
    recording.frame('1', frameOf(blue, T0 + 1000));
    recording.frame('1', frameOf(red, T0 + 2000));
    recording.tabClosed('1', T0 + 3000);
    recording.frame('1', frameOf(blue, T0 + 3500)); // after it closed: not kept
    recording.tabOpened('2', { url: 'about:blank', title: '' }, T0 + 1500);
    clock.advance(4000);
    await recordings.endAndMake(recording);
    await recordings.idle();

    const stored = await recordings.recording('two-tabs');
    expect(stored?.state).toBe('READY');
    expect(stored?.pages.map((page) => [page.pageId, page.frames, page.endTimeMs])).toEqual([
      ['0', 2, T0 + 4000],
      ['1', 2, T0 + 3000],
    ]);
    expect(frameKeys(blobs, 'two-tabs')).toEqual([]);
    expect(await recordings.file('two-tabs', '2', 'video.mp4')).toBeNull();

    const first = (await recordings.file('two-tabs', '0', 'video.mp4'))!;
    expect(isRed(await centreAt(first, 1))).toBe(true);
    expect(isBlue(await centreAt(first, 3))).toBe(true);
    const second = (await recordings.file('two-tabs', '1', 'video.mp4'))!;
    expect(isBlue(await centreAt(second, 0.5))).toBe(true);
    expect(isRed(await centreAt(second, 1.5))).toBe(true);
    expect(Math.abs((await durationOf(second)) - 2)).toBeLessThanOrEqual(0.3);
  });
});

describe('the bound', () => {
  it('stops keeping frames past maxBytes, says so once, and still makes the video of what it kept', async () => {
    const record = encodeFrame(T0, red).byteLength;
    const maxBytes = Math.floor(record * 1.5);
    const onCapped = vi.fn();
    const { clock, recordings } = setUp({ maxBytes });
    const recording = recordings.start('bounded', { onCapped });
    recording.tabOpened('0', { url: 'https://example.test/', title: '' }, T0);
    recording.frame('0', frameOf(red, T0));
    expect(onCapped).not.toHaveBeenCalled();
    recording.frame('0', frameOf(red, T0 + 1000));
    expect(onCapped).toHaveBeenCalledTimes(1);
    recording.frame('0', frameOf(red, T0 + 2000));
    recording.tabOpened('1', { url: 'https://other.test/', title: '' }, T0 + 2000);
    recording.frame('1', frameOf(blue, T0 + 2000));
    expect(onCapped).toHaveBeenCalledTimes(1);

    // Said while the session runs, not only at its end.
    await vi.waitFor(async () => expect((await recordings.recording('bounded'))?.capped).toBe(true));
    clock.advance(3000);
    await recordings.endAndMake(recording);
    await recordings.idle();
    const stored = await recordings.recording('bounded');
    expect(stored).toMatchObject({ state: 'READY', capped: true, bytes: record });
    expect(stored!.bytes).toBeLessThanOrEqual(maxBytes);
    expect(stored?.pages.map((page) => [page.pageId, page.frames])).toEqual([['0', 1]]);
    expect(onCapped).toHaveBeenCalledTimes(1);
  });

  // Frames that come while a chunk is being written count against the bound too (it counts what was
  // kept, written or not).
  it('counts the frames of a chunk being written against the bound', async () => {
    const record = encodeFrame(T0, red).byteLength;
    const maxBytes = Math.floor(record * 1.5);
    const { clock, blobs, recordings } = setUp({ maxBytes });
    const recording = recordings.start('bound-in-flight');
    recording.tabOpened('0', { url: 'https://example.test/', title: '' }, T0);
    let release = (): void => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const put = blobs.put.bind(blobs);
    vi.spyOn(blobs, 'put').mockImplementation(async (key, content) => {
      if (key.includes('/frames/')) await gate;
      return put(key, content);
    });
    recording.frame('0', frameOf(red, T0));
    // The chunk is written a second after its first frame; the write waits at the gate.
    await vi.waitFor(
      () => expect(blobs.put).toHaveBeenCalledWith(expect.stringContaining('/frames/0'), expect.anything()),
      {
        timeout: 3000,
      },
    );
    recording.frame('0', frameOf(red, T0 + 1500));
    release();
    clock.advance(2000);
    const manifest = await recording.end(clock.now().getTime());
    expect(manifest.bytes).toBeLessThanOrEqual(maxBytes);
    expect(manifest.capped).toBe(true);
  });
});

describe('failures', () => {
  it('says FAILED, naming ffmpeg, when ffmpeg is missing, and keeps the frames', async () => {
    const warn = vi.fn();
    const { clock, blobs, recordings } = setUp({
      ffmpegPath: '/nonexistent/ffmpeg',
      logger: { warn, error: vi.fn() },
    });
    const recording = recordings.start('no-ffmpeg');
    recording.tabOpened('0', { url: 'https://example.test/', title: '' }, T0);
    recording.frame('0', frameOf(red, T0));
    clock.advance(1000);
    await recordings.endAndMake(recording);
    await recordings.idle();
    const stored = await recordings.recording('no-ffmpeg');
    expect(stored?.state).toBe('FAILED');
    expect(stored?.error).toMatch(/ffmpeg/);
    expect(stored?.error).toContain('/nonexistent/ffmpeg');
    expect(stored?.completedAt).toBeNull();
    expect(frameKeys(blobs, 'no-ffmpeg')).toEqual(['recordings/no-ffmpeg/0/frames/0']);
    expect(await recordings.file('no-ffmpeg', '0', 'video.mp4')).toBeNull();
    expect(warn).toHaveBeenCalledWith(
      expect.objectContaining({ providerSessionId: 'no-ffmpeg' }),
      expect.stringContaining('could not make'),
    );
    // Once ffmpeg is there, a downloads request makes them again, from the frames kept.
    const fixed = new Recordings({ blobs, clock, logger: silentLogger });
    await fixed.requestDownloads('no-ffmpeg');
    expect((await fixed.recording('no-ffmpeg'))?.state).toBe('PROCESSING');
    await fixed.idle();
    expect(await fixed.recording('no-ffmpeg')).toMatchObject({
      state: 'READY',
      error: null,
      downloadsRequested: true,
    });
    expect(
      Buffer.from((await fixed.file('no-ffmpeg', '0', 'video.mp4')) ?? []).toString('latin1', 4, 8),
    ).toBe('ftyp');
    expect(frameKeys(blobs, 'no-ffmpeg')).toEqual([]);
  });

  it('makes again the videos of a recording left PROCESSING by a stopped instance, once stale', async () => {
    const { clock, blobs, recordings } = setUp();
    const recording = recordings.start('orphaned');
    recording.tabOpened('0', { url: 'https://example.test/', title: '' }, T0);
    recording.frame('0', frameOf(red, T0));
    clock.advance(1000);
    // Its instance wrote the last frames and stopped before making the videos.
    await recording.end(clock.now().getTime());
    const other = new Recordings({ blobs, clock, logger: silentLogger });
    await other.requestDownloads('orphaned');
    await other.idle();
    expect((await other.recording('orphaned'))?.state).toBe('PROCESSING');
    clock.advance(11 * 60 * 1000);
    await other.requestDownloads('orphaned');
    await other.idle();
    expect((await other.recording('orphaned'))?.state).toBe('READY');
  });

  it('goes on when the blob store refuses every write, and logs it', async () => {
    const warn = vi.fn();
    const { clock, blobs, recordings } = setUp({ logger: { warn, error: vi.fn() } });
    vi.spyOn(blobs, 'put').mockRejectedValue(new Error('database gone'));
    const recording = recordings.start('no-store');
    recording.tabOpened('0', { url: 'https://example.test/', title: '' }, T0);
    recording.frame('0', frameOf(red, T0));
    clock.advance(1000);
    await expect(recordings.endAndMake(recording)).resolves.toBeUndefined();
    await expect(recordings.idle()).resolves.toBeUndefined();
    expect(warn).toHaveBeenCalledWith(
      expect.objectContaining({ providerSessionId: 'no-store', err: expect.any(Error) }),
      'recording: could not store a chunk of a session’s frames',
    );
    expect(blobs.keys()).toEqual([]);
  });

  it('loses only the chunk whose write failed, and makes the video of the rest', async () => {
    const warn = vi.fn();
    const { clock, blobs, recordings } = setUp({ logger: { warn, error: vi.fn() } });
    const put = blobs.put.bind(blobs);
    let failed = false;
    vi.spyOn(blobs, 'put').mockImplementation(async (key, content) => {
      if (key.includes('/frames/') && !failed) {
        failed = true;
        throw new Error('database busy');
      }
      return put(key, content);
    });
    const recording = recordings.start('one-lost');
    recording.tabOpened('0', { url: 'https://example.test/', title: '' }, T0);
    recording.frame('0', frameOf(red, T0));
    // Its chunk is written (and fails) a second after the frame.
    await vi.waitFor(() => expect(warn).toHaveBeenCalledTimes(1), { timeout: 3000 });
    recording.frame('0', frameOf(blue, T0 + 2000));
    clock.advance(4000);
    await recordings.endAndMake(recording);
    await recordings.idle();
    const stored = await recordings.recording('one-lost');
    expect(stored?.state).toBe('READY');
    expect(stored?.bytes).toBe(encodeFrame(T0 + 2000, blue).byteLength);
    const mp4 = (await recordings.file('one-lost', '0', 'video.mp4'))!;
    expect(isBlue(await centreAt(mp4, 1))).toBe(true);
  });
});

describe('downloads', () => {
  it('notes that downloads were asked for', async () => {
    const { recordings } = setUp();
    const recording = recordings.start('downloads');
    await recording.end(T0);
    expect((await recordings.recording('downloads'))?.downloadsRequested).toBe(false);
    await recordings.requestDownloads('downloads');
    expect((await recordings.recording('downloads'))?.downloadsRequested).toBe(true);
    expect(await recordings.recording('never-recorded')).toBeNull();
  });
});

describe('retention', () => {
  it('removes, at a start, the recordings last written before the retention, and keeps fresh ones', async () => {
    const { clock, blobs, recordings } = setUp({ start: T0 - 8 * DAY_MS });
    const old = recordings.start('old');
    old.tabOpened('0', { url: 'https://old.test/', title: '' }, clock.now().getTime());
    old.frame('0', frameOf(red, clock.now().getTime()));
    await old.end(clock.now().getTime());

    clock.advance(6 * DAY_MS);
    const fresh = recordings.start('fresh');
    await fresh.end(clock.now().getTime());
    // At two days old nothing was past its retention: both are there before the sweep.
    expect(await recordings.recording('old')).not.toBeNull();
    expect(blobs.keys().filter((key) => key.startsWith('recordings/old/'))).toHaveLength(2);

    clock.advance(2 * DAY_MS);
    recordings.start('new');
    await vi.waitFor(async () => expect(await recordings.recording('old')).toBeNull());
    expect(blobs.keys().filter((key) => key.startsWith('recordings/old/'))).toEqual([]);
    expect(await recordings.recording('fresh')).not.toBeNull();
    expect(await recordings.recording('new')).not.toBeNull();
  });
});
