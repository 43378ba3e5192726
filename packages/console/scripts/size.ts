/**
 * `npm run size -w @browserdeck/console`: the gzipped size of every JavaScript and CSS file the
 * build emitted, and their total, which must stay within the console's budget (issue 17: 150 KB of
 * JavaScript and CSS, gzipped). Exits 1 above it, or when there is no build to measure.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';

/** The budget in bytes: 150 KB, counted as 150 000 bytes (the stricter reading). */
export const BUDGET_BYTES = 150_000;

const dist = join(import.meta.dirname, '..', 'dist');

/** Every file below `dir`, as paths. */
function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? files(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

let listed: string[];
try {
  listed = files(dist);
} catch {
  console.error(`No build in ${dist}: run \`npm run build -w @browserdeck/console\` first.`);
  process.exit(1);
}

const measured = listed
  .filter((path) => /\.(m?js|css)$/.test(path))
  .map((path) => {
    const bytes = readFileSync(path);
    return { file: relative(dist, path), raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
  })
  .sort((a, b) => b.gzip - a.gzip);

const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;
for (const { file, raw, gzip } of measured) {
  console.log(`${kb(gzip).padStart(10)} gzipped  ${kb(raw).padStart(10)} raw  ${file}`);
}
const total = measured.reduce((sum, { gzip }) => sum + gzip, 0);
console.log(`${kb(total).padStart(10)} gzipped in total (JavaScript and CSS); budget ${kb(BUDGET_BYTES)}`);
if (measured.length === 0) {
  console.error('The build emitted no JavaScript or CSS.');
  process.exit(1);
}
if (total > BUDGET_BYTES) {
  console.error(`Over budget by ${kb(total - BUDGET_BYTES)}.`);
  process.exit(1);
}
