import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

/** What tests read of a video with Debian's ffmpeg and ffprobe (`FFMPEG_PATH` or the PATH's). */
const run = promisify(execFile);
const FFMPEG = process.env.FFMPEG_PATH ?? 'ffmpeg';

/** The RGB of pixel (x, y) of the frame shown at `seconds`. */
export async function pixelAt(file: string, seconds: number, x: number, y: number, width: number) {
  const { stdout } = await run(
    FFMPEG,
    ['-loglevel', 'error', '-ss', String(seconds), '-i', file, '-frames:v', '1'].concat([
      '-f',
      'rawvideo',
      '-pix_fmt',
      'rgb24',
      '-',
    ]),
    { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 },
  );
  const at = (y * width + x) * 3;
  return { r: stdout[at] ?? -1, g: stdout[at + 1] ?? -1, b: stdout[at + 2] ?? -1 };
}

export interface Probe {
  streams: { codec_name: string; pix_fmt: string; width: number; height: number }[];
  format: { duration: string };
}

export async function probe(file: string, args: readonly string[] = []): Promise<Probe> {
  const { stdout } = await run('ffprobe', [
    '-v',
    'error',
    '-show_streams',
    '-show_format',
    '-of',
    'json',
    ...args,
    file,
  ]);
  return JSON.parse(stdout) as Probe;
}

/** The types of an MP4's top-level boxes, in file order. */
export function topLevelBoxes(mp4: Buffer): string[] {
  const types: string[] = [];
  let at = 0;
  while (at + 8 <= mp4.length) {
    const size32 = mp4.readUInt32BE(at);
    types.push(mp4.toString('latin1', at + 4, at + 8));
    const size = size32 === 1 ? Number(mp4.readBigUInt64BE(at + 8)) : size32 === 0 ? mp4.length - at : size32;
    if (size < 8) break;
    at += size;
  }
  return types;
}
