import { aptGetInstall, succeeds } from './aptGetInstall.ts';

/**
 * What the screencast video tests run on: Debian's `ffmpeg` package, which brings `ffmpeg` (with
 * libx264) to make the videos and `ffprobe` to check them. When either does not run the set-up
 * installs the package (as root, with apt-get), as it does bubblewrap; where it cannot, those tests
 * fail naming what to install.
 */
export async function ensureFfmpeg(log: (line: string) => void = console.log): Promise<void> {
  if ((await succeeds('ffmpeg', ['-version'])) && (await succeeds('ffprobe', ['-version']))) return;
  await aptGetInstall(['ffmpeg'], 'the screencast video tests', log);
}
