import { spawn } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { text } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
const BENCHMARKS = resolve(ROOT, 'docs/benchmarks.md');

/**
 * The smallest run of `npm run bench` that still goes through the runner's main paths: API
 * throughput (bare Koa, list, create), the Browserbase provider overhead, API key authentication,
 * the CPU profile and the report. PostgreSQL, the local provider and the browser scenarios are left
 * out: each starts its own server or browsers, too slow for every `npm test` on a shared machine.
 */
const SMOKE_ENV = {
  BENCH_SCENARIOS: 'sqlite,provider,apikey',
  BENCH_ROUNDS: '1',
  BENCH_DURATION_SEC: '1',
  BENCH_CONNECTIONS: '2',
  BENCH_PROVIDER_REQUESTS: '20',
  BENCH_APIKEY_REQUESTS: '20',
  BENCH_PROFILE: 'always',
  BENCH_WRITE: 'none',
};

/** Runs `npm run bench` as a user would (`node --conditions=source bench/run.ts`), with only `env`. */
async function runBench(env: Record<string, string>): Promise<{ code: unknown; out: string }> {
  const child = spawn(process.execPath, ['--conditions=source', resolve(ROOT, 'bench/run.ts')], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const [out, err, code] = await Promise.all([
    text(child.stdout),
    text(child.stderr),
    new Promise((done) => child.once('exit', done)),
  ]);
  return { code, out: `${out}\n${err}` };
}

/** The cells of the report's table row whose first cell is `label`. */
function row(report: string, label: string): string[] {
  const line = report.split('\n').find((l) => l.startsWith(`| ${label} |`));
  if (!line) throw new Error(`no table row "${label}" in the report:\n${report.slice(-3000)}`);
  return line
    .split('|')
    .slice(1, -1)
    .map((cell) => cell.trim());
}

describe('npm run bench (one-round smoke)', () => {
  it('measures every scenario it was asked for, prints non-zero req/s and writes nothing', async () => {
    const before = readFileSync(BENCHMARKS, 'utf8');
    const mtimeBefore = statSync(BENCHMARKS).mtimeMs;

    const { code, out } = await runBench(SMOKE_ENV);

    expect(code, out.slice(-3000)).toBe(0);
    expect(out, 'a scenario failed').not.toMatch(/FAILED:|## Failures in this run/);
    for (const label of [
      'sqlite: bare Koa, same JSON',
      'sqlite: GET /v1/projects (20)',
      'sqlite: POST /v1/projects',
    ]) {
      // measurement | req/s (median) | …
      expect(Number(row(out, label)[1]), label).toBeGreaterThan(0);
    }
    const concurrent = /At 2 connections for 1 s: (\d+) creates\/s/.exec(out);
    expect(Number(concurrent?.[1]), 'provider: creates/s').toBeGreaterThan(0);
    for (const label of [
      '`Authorization: Bearer <access token>`',
      '`Authorization: Bearer bdk_…`',
      '`X-BB-API-Key: bdk_…`',
    ]) {
      // credential | p50 ms | p95 ms | p50 − token p50 | req/s | …
      expect(Number(row(out, label)[4]), label).toBeGreaterThan(0);
    }
    expect(out).toMatch(/## CPU profile \(server process\)/);
    expect(out).toContain('not written (BENCH_WRITE=none)');

    expect(readFileSync(BENCHMARKS, 'utf8')).toBe(before);
    expect(statSync(BENCHMARKS).mtimeMs).toBe(mtimeBefore);
  }, 240_000);
});
