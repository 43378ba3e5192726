import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';

/** The console's budget for its JavaScript and CSS, gzipped: 150 KB, counted as 150 000 bytes. */
export const BUDGET_BYTES = 150_000;

/** One emitted JavaScript or CSS file and its sizes in bytes. */
export interface MeasuredFile {
  file: string;
  raw: number;
  gzip: number;
}

/** Every file below `dir`, as paths. */
function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? files(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

/**
 * The JavaScript and CSS files of a build in `dist`, largest gzipped first, with their raw and
 * gzipped (level 9) sizes and the gzipped total. Throws when `dist` does not exist.
 */
export function measureBuild(dist: string): { files: MeasuredFile[]; totalGzip: number } {
  const measured = files(dist)
    .filter((path) => /\.(m?js|css)$/.test(path))
    .map((path) => {
      const bytes = readFileSync(path);
      return { file: relative(dist, path), raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
    })
    .sort((a, b) => b.gzip - a.gzip);
  return { files: measured, totalGzip: measured.reduce((sum, { gzip }) => sum + gzip, 0) };
}
