/**
 * Scenario `runs` (issue 25 §9): an agent run "open a data: page, return its title" through HTTP with
 * `wait`, against the same script run by hand. One server started as `npm start` starts it
 * (test/serverProcess.ts: SQLite, local provider, LOCAL_WARM_BROWSERS=1, RUN_CONCURRENCY=2, the
 * default warm runners), and in interleaved blocks:
 *
 * - end to end: `POST …/agents/{id}/runs {"wait":30}`, one at a time, each SUCCEEDED with the title;
 *   the split from the run's own record and logs (queue wait, session ready, the runner's timings
 *   line, release, end);
 * - floor: a fresh `node` (process.execPath) with playwright-core connects over CDP to an
 *   already-created session's connectUrl, opens the page, prints the title and disconnects;
 * - in process: the bench's own, already-loaded playwright-core does the same.
 *
 * Then sustained: RUN_CONCURRENCY=2, four clients, each of an account of its own, posting runs with
 * `wait` in a loop.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { findChromium } from '@browserdeck/adapters/local-chromium';
import { parseRunnerTimingsLine } from '@browserdeck/adapters/runs';
import { chromium } from 'playwright-core';
import { type ServerProcess, startServerProcess } from '../test/serverProcess.ts';
import { call, newUser } from './api.ts';
import {
  type ByHand,
  type EndToEnd,
  quantiles,
  RUNS_BLOCK,
  RUNS_CLIENTS,
  RUNS_PAGE,
  RUNS_SCRIPT,
  RUNS_TITLE,
  type RunsFigures,
  type RunsOptions,
  type RunsSide,
  type SustainedFigures,
} from './runsFigures.ts';
import { runsMarkdown } from './runsMarkdown.ts';
import { fmt } from './stats.ts';

export { RUNS_TARGETS } from './runsFigures.ts';

const ROOT = resolve(import.meta.dirname, '..');
const WARM_UP = 2;
const WAIT_SEC = 30;
/** The floor's script: the run's, by hand, in a fresh Node; its own phases on stdout as JSON. */
const FLOOR_SOURCE = `
const booted = performance.now();
const { chromium } = await import('playwright-core');
const imported = performance.now();
const browser = await chromium.connectOverCDP(process.argv[1]);
const connected = performance.now();
const context = browser.contexts()[0] ?? (await browser.newContext());
const page = context.pages()[0] ?? (await context.newPage());
await page.goto(${JSON.stringify(RUNS_PAGE)});
const title = await page.title();
const done = performance.now();
await browser.close();
console.log(JSON.stringify({ title, boot: booted, import: imported - booted, connect: connected - imported, script: done - connected, disconnect: performance.now() - done }));
`;
const SIDES: readonly RunsSide[] = ['endToEnd', 'floor', 'inProcess'];

export interface RunsResult {
  figures: RunsFigures;
  markdown: string;
}

interface RunBody {
  id: string;
  status: string;
  result: unknown;
  error: unknown;
  createdAt: string;
  startedAt: string | null;
  endedAt: string | null;
}
interface LogLine {
  seq: number;
  timestamp: string;
  stream: string;
  message: string;
}

const at = (iso: string | null | undefined) => (iso ? Date.parse(iso) : Number.NaN);

/** The API of one account with one project and the agent: runs, their logs, sessions. */
async function accountApi(server: ServerProcess, name: string) {
  const token = await newUser(server.url);
  const project = await call<{ id: string }>(server.url, 'POST', '/v1/projects', {
    token,
    body: { name },
    expect: 201,
  });
  const base = `/v1/local/projects/${project.id}`;
  const agent = await call<{ id: string }>(server.url, 'POST', `${base}/agents`, {
    token,
    body: { name: 'title', script: RUNS_SCRIPT },
    expect: 201,
  });
  const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
  return {
    /** `POST …/runs {"wait":30}`: the answer and its round trip; throws unless SUCCEEDED with the title. */
    async startAndWait(): Promise<{ run: RunBody; roundTrip: number }> {
      const t0 = performance.now();
      const response = await fetch(`${server.url}${base}/agents/${agent.id}/runs`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ wait: WAIT_SEC }),
        signal: AbortSignal.timeout((WAIT_SEC + 30) * 1000),
      });
      const text = await response.text();
      const roundTrip = performance.now() - t0;
      if (response.status !== 201) throw new Error(`POST …/runs → ${response.status}: ${text.slice(0, 300)}`);
      const run = JSON.parse(text) as RunBody;
      if (run.status !== 'SUCCEEDED' || run.result !== RUNS_TITLE)
        throw new Error(
          `run ${run.id} ended ${run.status} with ${JSON.stringify(run.result)} ${JSON.stringify(run.error)}`,
        );
      return { run, roundTrip };
    },
    logs: async (runId: string) =>
      (await call<{ logs: LogLine[] }>(server.url, 'GET', `${base}/runs/${runId}/logs?limit=1000`, { token }))
        .logs,
    createSession: () =>
      call<{ id: string; connectUrl: string }>(server.url, 'POST', `${base}/sessions`, {
        token,
        body: {},
        expect: 201,
      }),
    release: (id: string) => call(server.url, 'POST', `${base}/sessions/${id}:release`, { token, body: {} }),
  };
}
type AccountApi = Awaited<ReturnType<typeof accountApi>>;

/** The end-to-end split of a run from its record and its logs. */
function splitOf(run: RunBody, logs: LogLine[], roundTrip: number): EndToEnd {
  const ready = logs.find((l) => l.stream === 'system' && / ready$/.test(l.message));
  const timingsLine = logs.find((l) => l.stream === 'system' && parseRunnerTimingsLine(l.message));
  // The run's last line: its session is released after the answer, not within the run's time.
  const released = logs.find((l) => l.stream === 'system' && / is released as the run ends$/.test(l.message));
  // Without a timings line, the script's process ends at its last line of output.
  const processEnd =
    timingsLine ?? logs.filter((l) => l.stream !== 'system').at(-1) ?? released ?? ready ?? null;
  const created = at(run.createdAt);
  const started = at(run.startedAt);
  const ended = at(run.endedAt);
  return {
    roundTrip,
    queue: started - created,
    session: at(ready?.timestamp) - started,
    process: at(processEnd?.timestamp) - at(ready?.timestamp),
    release: at(released?.timestamp) - at(processEnd?.timestamp),
    finish: ended - at(released?.timestamp),
    http: roundTrip - (ended - created),
    runner: timingsLine ? parseRunnerTimingsLine(timingsLine.message) : null,
  };
}

/** The floor: a fresh Node with playwright-core against `connectUrl`, timed from spawn to exit. */
function floorRun(connectUrl: string): Promise<ByHand> {
  return new Promise((done, fail) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, ['--input-type=module', '-e', FLOOR_SOURCE, connectUrl], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c));
    child.stderr.on('data', (c: Buffer) => (out += c));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.once('exit', (code) => {
      const total = performance.now() - t0;
      clearTimeout(timer);
      try {
        const report = JSON.parse(out.trim().split('\n').at(-1) ?? '') as ByHand & { title: string };
        if (code !== 0 || report.title !== RUNS_TITLE) throw new Error('no title');
        done({ ...report, total });
      } catch {
        fail(new Error(`the floor's node exited with ${code}:\n${out.slice(-1500)}`));
      }
    });
  });
}

/** The in-process reference: the bench's loaded playwright-core against `connectUrl`. */
async function inProcessRun(connectUrl: string): Promise<ByHand> {
  const t0 = performance.now();
  const browser = await chromium.connectOverCDP(connectUrl);
  const t1 = performance.now();
  const context = browser.contexts()[0] ?? (await browser.newContext());
  const page = context.pages()[0] ?? (await context.newPage());
  await page.goto(RUNS_PAGE);
  const title = await page.title();
  const t2 = performance.now();
  await browser.close();
  const t3 = performance.now();
  if (title !== RUNS_TITLE) throw new Error(`the page's title is ${JSON.stringify(title)}`);
  return { total: t3 - t0, boot: 0, import: 0, connect: t1 - t0, script: t2 - t1, disconnect: t3 - t2 };
}

/** A session created for `side` (untimed), the run by hand against it, then its release (untimed). */
async function byHand(api: AccountApi, side: 'floor' | 'inProcess'): Promise<ByHand> {
  const session = await api.createSession();
  try {
    return await (side === 'floor' ? floorRun : inProcessRun)(session.connectUrl);
  } finally {
    await api.release(session.id);
  }
}

/** The `browserdeck_run_spawn_seconds` histogram as /metrics shows it now. */
async function spawnHistogram(server: ServerProcess) {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const value = (re: RegExp) => Number(re.exec(text)?.[1] ?? Number.NaN);
  return {
    count: value(/^browserdeck_run_spawn_seconds_count(?:\{\})? (\S+)$/m),
    sum: value(/^browserdeck_run_spawn_seconds_sum(?:\{\})? (\S+)$/m),
    within75ms: value(/^browserdeck_run_spawn_seconds_bucket\{le="0\.075"\} (\S+)$/m),
  };
}

/**
 * `apis.length` loops, each posting runs with `wait` for `seconds` for an account of its own (one
 * account's runs take one slot at a time: RUN_MAX_ACTIVE_PER_OWNER); then, untimed, each run's logs.
 */
async function sustain(apis: AccountApi[], seconds: number): Promise<SustainedFigures> {
  const failures: string[] = [];
  const done: Array<{ run: RunBody; roundTrip: number }> = [];
  const t0 = performance.now();
  const deadline = t0 + seconds * 1000;
  const byRun = new Map<string, AccountApi>();
  await Promise.all(
    apis.map(async (api) => {
      while (performance.now() < deadline) {
        try {
          const result = await api.startAndWait();
          byRun.set(result.run.id, api);
          done.push(result);
        } catch (error) {
          failures.push(error instanceof Error ? error.message : String(error));
        }
      }
    }),
  );
  const elapsed = (performance.now() - t0) / 1000;
  const splits: EndToEnd[] = [];
  for (const { run, roundTrip } of done)
    splits.push(splitOf(run, await (byRun.get(run.id) as AccountApi).logs(run.id), roundTrip));
  return {
    seconds: elapsed,
    runs: done.length,
    runsPerSec: done.length / elapsed,
    roundTrip: quantiles(done.map((d) => d.roundTrip)),
    queue: quantiles(splits.map((s) => s.queue)),
    session: quantiles(splits.map((s) => s.session)),
    process: quantiles(splits.map((s) => s.process)),
    release: quantiles(splits.map((s) => s.release)),
    warmRunners: splits.filter((s) => s.runner?.warm).length,
    failures,
  };
}

export async function runRunsBench(options: RunsOptions): Promise<RunsResult> {
  const { runs, sustainSec, pauseMs, log } = options;
  const started = new Date();
  const loadStart = loadavg()[0]!;
  const found = await findChromium();
  if (!found) throw new Error('no Chromium found (findChromium)');
  const version = (await promisify(execFile)(found.path, ['--version'])).stdout.trim();
  log(`  [runs] Chromium: ${found.path} (${found.source}), ${version}`);
  const dataDir = mkdtempSync(join(tmpdir(), 'browserdeck-bench-runs-'));
  let server: ServerProcess | undefined;
  try {
    server = await startServerProcess({
      DATA_DIR: dataDir,
      LOCAL_WARM_BROWSERS: '1',
      RUN_CONCURRENCY: '2',
      ...(process.env.CHROMIUM_PATH ? { CHROMIUM_PATH: process.env.CHROMIUM_PATH } : {}),
    });
    const live = server;
    // Two accounts: an account holds at most half of LOCAL_MAX_SESSIONS (4) at once.
    const runsApi = await accountApi(live, 'Runs bench');
    const handApi = await accountApi(live, 'Runs bench, by hand');
    const times = { endToEnd: [] as EndToEnd[], floor: [] as ByHand[], inProcess: [] as ByHand[] };
    const endToEnd = async () => {
      const { run, roundTrip } = await runsApi.startAndWait();
      return splitOf(run, await runsApi.logs(run.id), roundTrip);
    };
    const runBlock = async (side: RunsSide, count: number, timed: boolean) => {
      // An untimed lead-in: every timed end-to-end run follows another, not a block by hand.
      if (side === 'endToEnd' && timed) await endToEnd();
      const line: string[] = [];
      for (let i = 0; i < count; i++) {
        if (side === 'endToEnd') {
          // Untimed: the warm browser and runner processes the last run took are replaced by now.
          if (timed && pauseMs > 0) await new Promise((done) => setTimeout(done, pauseMs));
          const t = await endToEnd();
          if (timed) times.endToEnd.push(t);
          line.push(fmt(t.roundTrip, 0));
        } else {
          const t = await byHand(handApi, side);
          if (timed) times[side].push(t);
          line.push(fmt(t.total, 0));
        }
      }
      log(`  [runs] ${side}${timed ? '' : ' (warm-up)'} ms: ${line.join(' ')}`);
    };
    for (const side of SIDES) await runBlock(side, WARM_UP, false);
    const spawnBefore = await spawnHistogram(live);
    for (let round = 0; SIDES.some((s) => times[s].length < runs); round++) {
      const order = SIDES.map((_, i) => SIDES[(i + round) % SIDES.length]!);
      for (const side of order) await runBlock(side, Math.min(RUNS_BLOCK, runs - times[side].length), true);
    }
    const spawnAfter = await spawnHistogram(live);
    const loadAfterTiming = loadavg()[0]!;
    const spawned = spawnAfter.count - spawnBefore.count;
    const spawnMetric = Number.isFinite(spawned)
      ? {
          count: spawned,
          meanMs: ((spawnAfter.sum - spawnBefore.sum) / spawned) * 1000,
          within75ms: (spawnAfter.within75ms - spawnBefore.within75ms) / spawned,
        }
      : null;

    log(`  [runs] sustained: ${RUNS_CLIENTS} clients for ${sustainSec} s`);
    const clients = await Promise.all(
      Array.from({ length: RUNS_CLIENTS }, (_, i) => accountApi(live, `Runs bench client ${i + 1}`)),
    );
    const sustained = await sustain(clients, sustainSec);
    log(
      `  [runs] sustained: ${sustained.runs} runs, ${fmt(sustained.runsPerSec, 2)}/s, p50 ${fmt(sustained.roundTrip.p50, 0)} ms, failures ${sustained.failures.length}`,
    );
    const output = live.output();
    const figures: RunsFigures = {
      chromium: {
        path: found.path,
        source: found.source,
        version,
        server: /"chromium":"([^"]+)"/.exec(output)?.[1] ?? null,
      },
      isolation: {
        browsers: /"isolation":"([a-z]+)"(?![^\n]*script runner)/.exec(output)?.[1] ?? 'unknown',
        runner: /"isolation":"([a-z]+)"[^\n]*script runner: runs are confined/.exec(output)?.[1] ?? 'unknown',
      },
      ...times,
      spawnMetric,
      sustained,
      loads: { start: loadStart, afterTiming: loadAfterTiming, end: loadavg()[0]! },
    };
    return { figures, markdown: runsMarkdown(figures, options, started) };
  } finally {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
