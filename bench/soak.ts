/**
 * Load and soak: the mixed workload of `soakWorkload.ts` against the real server process (SQLite by
 * default, PostgreSQL optional) with the Browserbase provider on the zero-latency stand-in, for a
 * warm-up and then `durationSec` measured. Targets: zero errors, and the server's resident memory
 * growing less than 10% from the mean of the first 10 s to the mean of the last 10 s.
 *
 * `SOAK_SERVER_NODE_ARGS` (space-separated; default `--trace-gc`, empty for none) sets the server's
 * Node flags. With `--trace-gc` the heap left after each full (mark-compact) collection, and the heap
 * V8 had committed, are reported next to RSS, to tell a leak from V8 heap sizing.
 *
 * The warm-up defaults to 120 s: at this allocation rate V8 grows its old generation (and so RSS, by
 * some 100 MiB) until its first large mark-compact, while the live heap stays flat. After a 30 s
 * warm-up the measured minute usually includes that growth; after 120 s it still may
 * (see bench/soak-section.md).
 */
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { freePort } from '../test/freePort.ts';
import { createDatabase, dropDatabase, startPostgresServer } from '../test/postgresServer.ts';
import { startApiServer } from './api.ts';
import { type Child, startChild } from './childProcess.ts';
import { browserbaseEnv } from './providerOverhead.ts';
import { cpuSeconds, type RssSample, rssMiB, sampleRss } from './rssSampler.ts';
import { startWorkload } from './soakWorkload.ts';
import { fmt, percentile, table } from './stats.ts';

export interface SoakOptions {
  log: (line: string) => void;
  dialect?: 'sqlite' | 'postgres';
  durationSec?: number;
  warmupSec?: number;
  connections?: number;
}

export interface SoakResult {
  /** A section of docs/benchmarks.md, starting `## 5. Load and soak`. */
  markdown: string;
  /** Targets missed, one line each; empty when all were met. */
  failures: string[];
  requests: number;
  rps: number;
  errors: number;
  statuses: Record<string, number>;
  rss: { first: number; last: number; growth: number; samples: number[] };
  /** The full GCs of the measured window, when the server ran with `--trace-gc`. */
  fullGcs: FullGc[];
  loadAverage: number[];
  /** CPU used during the measured window, in cores (1 = one core busy all the time). */
  cpu: { server: number; client: number };
  /** Anonymous (JS heap, native allocations) and file-backed resident memory, first and last 10 s means. */
  rssParts: { anon: { first: number; last: number }; file: { first: number; last: number } };
}

const RSS_TARGET = 0.1;
const WINDOW = 10;
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One full (mark-compact) collection from `--trace-gc`: heap used and committed, before and after (MiB). */
export interface FullGc {
  before: number;
  committedBefore: number;
  after: number;
  committedAfter: number;
}

/** Watches the child's `--trace-gc` lines (`Mark-Compact 45.2 (60.1) -> 30.1 (62.3) MB, …`). */
function watchFullGcs(child: Child): { take(): FullGc[]; reset(): void } {
  let gcs: FullGc[] = [];
  let partial = '';
  const onData = (chunk: Buffer) => {
    const lines = (partial + chunk.toString()).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      const m = /Mark-Compact\s+([\d.]+)\s+\(([\d.]+)\)\s+->\s+([\d.]+)\s+\(([\d.]+)\)/.exec(line);
      if (m)
        gcs.push({
          before: Number(m[1]),
          committedBefore: Number(m[2]),
          after: Number(m[3]),
          committedAfter: Number(m[4]),
        });
    }
  };
  child.child.stdout?.on('data', onData);
  return {
    take: () => gcs,
    reset: () => {
      gcs = [];
    },
  };
}

export async function runSoak(options: SoakOptions): Promise<SoakResult> {
  const { log, dialect = 'sqlite', durationSec = 60, warmupSec = 120, connections = 64 } = options;
  const nodeArgs = (process.env.SOAK_SERVER_NODE_ARGS ?? '--trace-gc').split(/\s+/).filter(Boolean);
  const standIn = await startChild({
    script: resolve(import.meta.dirname, 'browserbaseStandIn.ts'),
    env: {},
    port: await freePort(),
    readyPath: '/__stats',
  });
  const pg = dialect === 'postgres' ? await startPostgresServer() : undefined;
  const dbName = `soak_${process.pid}`;
  try {
    const env: Record<string, string> = {
      ...browserbaseEnv(standIn.url),
      // Every worker signs in from 127.0.0.1: lift the per-address and per-e-mail limits.
      AUTH_RATE_LIMIT_PER_ADDRESS: '1000000',
      AUTH_RATE_LIMIT_SIGNIN_PER_EMAIL: '1000000',
      AUTH_RATE_LIMIT_SIGNUP_PER_EMAIL: '1000000',
      ...(pg ? { DATABASE_URL: await createDatabase(pg.adminUrl, dbName) } : {}),
    };
    const server = await startApiServer(env, nodeArgs);
    const pid = server.child.pid!;
    const gcs = watchFullGcs(server);
    try {
      log(`  [soak] ${dialect}, ${connections} connections: signing up the users`);
      const workload = await startWorkload({ baseUrl: server.url, connections, provider: 'browserbase' });
      log(`  [soak] warm-up ${warmupSec} s (RSS ${fmt(rssMiB(pid))} MiB)`);
      await sleep(warmupSec * 1000);
      workload.reset();
      gcs.reset();
      const sampler = sampleRss(pid);
      const started = performance.now();
      const serverCpuStart = cpuSeconds(pid);
      const clientCpuStart = process.cpuUsage();
      log(`  [soak] measuring ${durationSec} s (RSS ${fmt(rssMiB(pid))} MiB)`);
      await sleep(durationSec * 1000);
      const breakdown = sampler.stop();
      const samples = breakdown.map((b) => b.rss);
      const window = (pick: (b: RssSample) => number) => ({
        first: mean(breakdown.slice(0, WINDOW).map(pick)),
        last: mean(breakdown.slice(-WINDOW).map(pick)),
      });
      const parts = { anon: window((b) => b.anon), file: window((b) => b.file) };
      const counts = workload.counts();
      const elapsedSec = (performance.now() - started) / 1000;
      const loadAverage = loadavg();
      const clientCpu = process.cpuUsage(clientCpuStart);
      const cpu = {
        server: (cpuSeconds(pid) - serverCpuStart) / elapsedSec,
        client: (clientCpu.user + clientCpu.system) / 1e6 / elapsedSec,
      };
      await workload.stop();
      const first = mean(samples.slice(0, WINDOW));
      const last = mean(samples.slice(-WINDOW));
      const growth = (last - first) / first;
      const rps = counts.requests / elapsedSec;
      const fullGcs = [...gcs.take()];
      const failures: string[] = [];
      if (counts.errors > 0)
        failures.push(`${counts.errors} errors (target 0): ${counts.samples.slice(0, 3).join(' | ')}`);
      if (!(growth < RSS_TARGET))
        failures.push(`RSS grew ${fmt(growth * 100)}% (target < ${RSS_TARGET * 100}%)`);
      log(
        `  [soak] ${counts.requests} requests, ${fmt(rps, 0)} req/s, ${counts.errors} errors, RSS ${fmt(first)} → ${fmt(last)} MiB (${fmt(growth * 100)}%)`,
      );
      const markdown = soakMarkdown({
        dialect,
        connections,
        durationSec,
        warmupSec,
        nodeArgs,
        counts,
        rps,
        first,
        last,
        growth,
        samples,
        fullGcs,
        loadAverage,
        cpu,
        parts,
        failures,
      });
      return {
        markdown,
        failures,
        requests: counts.requests,
        rps,
        errors: counts.errors,
        statuses: counts.statuses,
        rss: { first, last, growth, samples },
        fullGcs,
        loadAverage,
        cpu,
        rssParts: parts,
      };
    } finally {
      await server.stop();
    }
  } finally {
    await standIn.stop();
    if (pg) {
      await dropDatabase(pg.adminUrl, dbName).catch(() => {});
      await pg.stop();
    }
  }
}

function soakMarkdown(r: {
  dialect: string;
  connections: number;
  durationSec: number;
  warmupSec: number;
  nodeArgs: string[];
  counts: ReturnType<Awaited<ReturnType<typeof startWorkload>>['counts']>;
  rps: number;
  first: number;
  last: number;
  growth: number;
  samples: number[];
  fullGcs: FullGc[];
  loadAverage: number[];
  cpu: { server: number; client: number };
  parts: SoakResult['rssParts'];
  failures: string[];
}): string {
  const mark = (ok: boolean) => (ok ? 'pass' : '**MISS**');
  const { counts } = r;
  const statuses = Object.entries(counts.statuses)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([status, n]) => `${status}: ${n}`)
    .join(', ');
  const operations = Object.entries(counts.operations)
    .sort(([, a], [, b]) => b - a)
    .map(([op, n]) => [op, String(n), `${fmt((n / counts.requests) * 100)}%`]);
  const heap = r.fullGcs.map((gc) => gc.after);
  const lines = [
    '## 5. Load and soak',
    '',
    `A mixed workload at ${r.connections} connections (one user each, keep-alive) against the server process on ${r.dialect === 'postgres' ? 'PostgreSQL' : 'SQLite'}, BROWSER_PROVIDER=browserbase on the zero-latency stand-in: ${r.warmupSec} s warm-up, then ${r.durationSec} s measured. Resident memory is the server's VmRSS, sampled every second.${r.nodeArgs.length ? ` Server Node flags: \`${r.nodeArgs.join(' ')}\`.` : ''}`,
    '',
    table(
      ['measure', 'value', 'target', 'result'],
      [
        ['requests', String(counts.requests), '', ''],
        ['requests/s', fmt(r.rps, 0), '', ''],
        [
          'latency p50 / p99 (ms)',
          `${fmt(percentile(counts.latenciesMs, 50))} / ${fmt(percentile(counts.latenciesMs, 99))}`,
          '',
          '',
        ],
        ['errors (unexpected status or network)', String(counts.errors), '0', mark(counts.errors === 0)],
        [`RSS mean of first / last ${WINDOW} s (MiB)`, `${fmt(r.first)} / ${fmt(r.last)}`, '', ''],
        ['RSS growth', `${fmt(r.growth * 100)}%`, `< ${RSS_TARGET * 100}%`, mark(r.growth < RSS_TARGET)],
        [
          'of which anonymous / file-backed, first → last (MiB)',
          `${fmt(r.parts.anon.first)} → ${fmt(r.parts.anon.last)} / ${fmt(r.parts.file.first)} → ${fmt(r.parts.file.last)}`,
          '',
          '',
        ],
        ['RSS min / max (MiB)', `${fmt(Math.min(...r.samples))} / ${fmt(Math.max(...r.samples))}`, '', ''],
        ...(heap.length
          ? [
              [
                'heap after full GC, first / last / max (MiB)',
                `${fmt(heap[0]!)} / ${fmt(heap.at(-1)!)} / ${fmt(Math.max(...heap))} (${heap.length} GCs)`,
                '',
                '',
              ],
            ]
          : []),
        ['CPU, server / load generator (cores)', `${fmt(r.cpu.server, 2)} / ${fmt(r.cpu.client, 2)}`, '', ''],
        ['load average (1 / 5 / 15 min)', r.loadAverage.map((l) => fmt(l, 2)).join(' / '), '', ''],
      ],
    ),
    '',
    `Statuses: ${statuses}.`,
    '',
    table(['operation', 'requests', 'share'], operations),
    '',
    `RSS samples (MiB, one a second): ${r.samples.map((s) => s.toFixed(0)).join(' ')}`,
  ];
  if (r.fullGcs.length)
    lines.push(
      '',
      `Full GCs (V8 heap used (committed) before → after, MiB): ${r.fullGcs
        .map((gc) => `${gc.before} (${gc.committedBefore}) → ${gc.after} (${gc.committedAfter})`)
        .join('; ')}`,
    );
  if (counts.samples.length) lines.push('', `Unexpected answers (first few): ${counts.samples.join(' | ')}`);
  if (r.failures.length) lines.push('', `Missed: ${r.failures.join('; ')}.`);
  return `${lines.join('\n')}\n`;
}
