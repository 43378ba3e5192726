/**
 * `npm run bench:soak`: runs the load and soak scenario alone and writes its section to
 * bench/soak-section.md. Knobs (environment): SOAK_DIALECT (sqlite | postgres), SOAK_DURATION_SEC
 * (60), SOAK_WARMUP_SEC (120), SOAK_CONNECTIONS (64), SOAK_SERVER_NODE_ARGS (`--trace-gc`),
 * SOAK_OUTPUT (bench/soak-section.md; `-` for none). Exits 1 when a target is missed.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { runSoak } from './soak.ts';

const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const result = await runSoak({
  log: (line) => console.log(line),
  dialect: process.env.SOAK_DIALECT === 'postgres' ? 'postgres' : 'sqlite',
  durationSec: num('SOAK_DURATION_SEC', 60),
  warmupSec: num('SOAK_WARMUP_SEC', 120),
  connections: num('SOAK_CONNECTIONS', 64),
});
console.log(`\n${result.markdown}`);
const output = process.env.SOAK_OUTPUT ?? resolve(import.meta.dirname, 'soak-section.md');
if (output !== '-') writeFileSync(output, result.markdown);
if (result.failures.length) {
  console.error(`Missed: ${result.failures.join('; ')}`);
  process.exitCode = 1;
}
