/**
 * `npm run size -w @browserdeck/console`: the gzipped size of every JavaScript and CSS file the
 * build emitted, and their total, which must stay within the console's budget (issue 17: 150 KB of
 * JavaScript and CSS, gzipped). Exits 1 above it, or when there is no build to measure. With
 * `-- --json` it prints `{ budgetBytes, totalGzip, files: [{ file, raw, gzip }] }` instead (what the
 * benchmark reads).
 */
import { join } from 'node:path';
import { BUDGET_BYTES, measureBuild } from './measureBuild.ts';

const dist = join(import.meta.dirname, '..', 'dist');

let measured: ReturnType<typeof measureBuild>;
try {
  measured = measureBuild(dist);
} catch {
  console.error(`No build in ${dist}: run \`npm run build -w @browserdeck/console\` first.`);
  process.exit(1);
}

const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;
if (process.argv.includes('--json')) {
  console.log(JSON.stringify({ budgetBytes: BUDGET_BYTES, ...measured }));
} else {
  for (const { file, raw, gzip } of measured.files) {
    console.log(`${kb(gzip).padStart(10)} gzipped  ${kb(raw).padStart(10)} raw  ${file}`);
  }
  console.log(
    `${kb(measured.totalGzip).padStart(10)} gzipped in total (JavaScript and CSS); budget ${kb(BUDGET_BYTES)}`,
  );
}
if (measured.files.length === 0) {
  console.error('The build emitted no JavaScript or CSS.');
  process.exit(1);
}
if (measured.totalGzip > BUDGET_BYTES) {
  console.error(`Over budget by ${kb(measured.totalGzip - BUDGET_BYTES)}.`);
  process.exit(1);
}
