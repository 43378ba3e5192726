/**
 * Browserdeck benchmarks: `npm run bench`. Prints a table and writes docs/benchmarks.md.
 *
 * Scenarios (each in its own file): API throughput on SQLite and PostgreSQL (apiThroughput.ts),
 * Browserbase provider overhead against a zero-latency stand-in (providerOverhead.ts), the local
 * Chromium provider (localProvider.ts, spawned), sessions at scale (scale.ts), the mixed-load
 * soak (soak.ts), API key authentication against a sign-in token (apiKeyAuth.ts) and the Browserbase
 * SDK's create → connected → first evaluate (browserbaseSdkFlow.ts), the live view's frame latency and
 * its cost to the driving client (liveView.ts), the web console's size and time to its first
 * rendered list (console.ts), and capacity (capacity.ts: create → connected → first evaluate, warm and
 * back-to-back, against an already-running Chromium's floor, and memory per idle session), and runs
 * (runs.ts: an agent run through HTTP with `wait`, its split, against the same script by hand, and
 * sustained runs at RUN_CONCURRENCY=2), and several instances (instances.ts: a forwarded request and CDP
 * round trip against direct ones on two instances sharing PostgreSQL; the Selenium Grid provider's
 * create → first evaluate against the Grid's own new session, and sessions per second on 1 and 2
 * instances), and deployment (deploy.ts: the container image's size and layers, cold start to
 * /readyz of a container against `npm start`, and create → connected → first evaluate directly,
 * through the shipped nginx front over TLS, and on a container; needs podman, builds
 * `localhost/browserdeck:bench` when absent), and recordings (recording.ts: recorded sessions against
 * `record: false` ones on one server, alternating: create → first evaluate, page loads, CPU a minute of
 * the server and the session's browser on a static and an animated page, frame bytes and video-making
 * time per minute recorded). Every
 * server runs in its own process; all traffic is to 127.0.0.1. Knobs (environment): BENCH_ROUNDS
 * (3), BENCH_DURATION_SEC (5), BENCH_CONNECTIONS (32), BENCH_PROVIDER_REQUESTS (300), BENCH_LOCAL_RUNS (5),
 * BENCH_ISOLATION_RUNS (20), BENCH_SCENARIOS (sqlite,postgres,provider,local,scale,soak,apikey,bbsdk,liveview,console,capacity,runs,instances,egress,waiters,deploy,shares,shared,recording),
 * BENCH_PROFILE (auto | always | never), BENCH_WRITE (all | sections | none), and the scenarios' own:
 * BENCH_SCALE_SESSIONS (1000000), BENCH_SCALE_PROJECTS (1000), BENCH_SCALE_SAMPLES (200),
 * SOAK_DURATION_SEC (60), SOAK_WARMUP_SEC (120), SOAK_CONNECTIONS (64), SOAK_DIALECT
 * (sqlite | postgres), SOAK_SERVER_NODE_ARGS (--trace-gc), BENCH_APIKEY_REQUESTS (500),
 * BENCH_BBSDK_RUNS (10), BENCH_BBSDK_WARM (1), BENCH_BBSDK_PAUSE_MS (1000), BENCH_LIVEVIEW_CHANGES (60),
 * BENCH_LIVEVIEW_EVALUATIONS (10000), BENCH_LIVEVIEW_BLOCK (1000), BENCH_CONSOLE_LOADS (30),
 * BENCH_CAPACITY_RUNS (20, timed runs per side: floor, warm, back-to-back), BENCH_CAPACITY_BLOCK (5,
 * runs per interleaved block), BENCH_CAPACITY_WARM (1, the server's LOCAL_WARM_BROWSERS),
 * BENCH_CAPACITY_PAUSE_MS (1500, before each warm run), BENCH_CAPACITY_MAX_SESSIONS (4, the servers'
 * LOCAL_MAX_SESSIONS and the idle sessions whose memory is read), BENCH_CAPACITY_SETTLE_MS (5000,
 * idle time before reading memory), BENCH_CAPACITY_RESERVE_MIB (4096, what a 24 GiB host keeps for
 * the OS and the service), BENCH_CAPACITY_HIT_MS (unset: a back-to-back create counts as a warm hit
 * at most max(20 ms, 3 × the warm creates' p50)), BENCH_RUNS_RUNS (30, timed runs per side: end to
 * end, floor, in process), BENCH_RUNS_SUSTAIN_SEC (60, the sustained phase), BENCH_RUNS_PAUSE_MS
 * (1500, untimed, before each timed end-to-end run: the warm pools refill; 0 = back to back),
 * BENCH_INSTANCES_REQUESTS (300, per side: direct, forwarded, the hop alone), BENCH_INSTANCES_CDP
 * (1000, round trips per side), BENCH_INSTANCES_CONNECTS (10, per side), BENCH_INSTANCES_GRID (1; 0
 * skips the Grid), BENCH_INSTANCES_GRID_RUNS (15, per side), BENCH_INSTANCES_RATE_SEC (20, each rate
 * phase), BENCH_INSTANCES_RATE_CLIENTS (4), BENCH_INSTANCES_STANDIN_CLIENTS (16, on the zero-latency
 * Grid stand-in), BENCH_INSTANCES_SLOTS (2, sessions per Grid node), BENCH_INSTANCES_NODE_OPTIONS
 * (unset; NODE_OPTIONS of the forwarding part's servers, e.g. `--cpu-prof --cpu-prof-dir=DIR`),
 * BENCH_EGRESS_LOADS (30, interleaved page loads per side; bench/egress.ts, which also reads
 * BENCH_EGRESS_THROUGHPUT_SEC, BENCH_EGRESS_THROUGHPUT_ROUNDS and BENCH_EGRESS_CREATES),
 * BENCH_WAITERS_STREAMS (1000, idle log streams held open; bench/runWaiters.ts, which also reads
 * BENCH_WAITERS_WINDOW_SEC and BENCH_WAITERS_ROUNDS), BENCH_SHARES_CLAIMS (500, claim + free round
 * trips of the accounts' session shares per ledger; bench/sessionShares.ts), BENCH_SHARED_ROUNDS (10, rounds
 * per side of bench/sharedState.ts: create → first evaluate through the holder and the other instance, a
 * context opened from local disk and from the database), BENCH_DEPLOY_STARTS (3, cold starts per side:
 * container, `npm start`), BENCH_DEPLOY_RUNS (10, timed rounds per way: direct, nginx, container),
 * BENCH_DEPLOY_PAUSE_MS (1500, before each round: the warm browser refills), BENCH_DEPLOY_BUILD (absent:
 * build `localhost/browserdeck:bench` only when missing | always: rebuild it, cached), BENCH_RECORDING_RUNS
 * (8, rounds; each runs a page-load, a static and an animated session per side: recorded, not),
 * BENCH_RECORDING_LOADS (10, timed page loads per page-load session), BENCH_RECORDING_WINDOW_SEC (10, the
 * CPU window of a static or animated session), BENCH_RECORDING_PAUSE_MS (1500, before each create; then
 * it waits for the warm browser).
 *
 * BENCH_WRITE: `all` regenerates docs/benchmarks.md down to the hand-written analysis; `sections`
 * only replaces the marked sections (`<!-- bench:NAME -->` … `<!-- /bench:NAME -->`, today `apikey`,
 * `bbsdk`, `liveview`, `console`, `capacity`, `runs`, `instances`, `egress`, `waiters`, `deploy`, `shares`,
 * `shared` and `recording`) of the scenarios this run measured, and leaves every other line as it was. The
 * default is `all` for a run of every scenario and `sections` for a partial run, so measuring one
 * scenario never blanks the others' figures. `none` only prints the report (the smoke run in
 * `npm test`, test/benchSmoke.int.test.ts, must not touch docs/benchmarks.md).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, freemem, loadavg, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from '../test/freePort.ts';
import { createDatabase, startPostgresServer } from '../test/postgresServer.ts';
import { API_KEY_TARGET_MS, type ApiKeyAuthResult, runApiKeyAuth } from './apiKeyAuth.ts';
import {
  createLoad,
  listLoad,
  runApiThroughput,
  type Summary,
  seededServer,
  type ThroughputResult,
} from './apiThroughput.ts';
import { type BrowserbaseSdkFlowResult, runBrowserbaseSdkFlow } from './browserbaseSdkFlow.ts';
import { CAPACITY_TARGETS, type CapacityResult, runCapacity } from './capacity.ts';
import { type Child, startChild } from './childProcess.ts';
import { type ConsoleBenchResult, runConsoleBench } from './console.ts';
import { CONSOLE_FIRST_LIST_TARGET_MS } from './consoleFigures.ts';
import { type DeployResult, runDeployBench } from './deploy.ts';
import {
  INSTANCES_TARGETS,
  type InstancesResult,
  instancesHeadline,
  runInstancesBench,
} from './instances.ts';
import { LIVE_VIEW_OVERHEAD_TARGET, type LiveViewBenchResult, runLiveViewBench } from './liveView.ts';
import { load } from './load.ts';
import { markedSection, replaceMarkedSections } from './markedSections.ts';
import { monotonicUs, type ProfileTop, type ProfileWindow, summariseProfile } from './profileSummary.ts';
import { browserbaseEnv, type OverheadResult, runProviderOverhead } from './providerOverhead.ts';
import { type RecordingBenchResult, runRecordingBench } from './recording.ts';
import { RECORDING_PAGE_LOAD_TARGET } from './recordingSample.ts';
import { RUNS_TARGETS, type RunsResult, runRunsBench } from './runs.ts';
import { runsHeadline } from './runsFigures.ts';
import { runScaleBench, SCALE_TARGETS, type ScaleBenchResult } from './scale.ts';
import { runSoak, type SoakResult } from './soak.ts';
import { fmt, table } from './stats.ts';

const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const ROUNDS = num('BENCH_ROUNDS', 3);
const DURATION = num('BENCH_DURATION_SEC', 5);
const CONNECTIONS = num('BENCH_CONNECTIONS', 32);
const PROVIDER_REQUESTS = num('BENCH_PROVIDER_REQUESTS', 300);
const LOCAL_RUNS = num('BENCH_LOCAL_RUNS', 5);
const ISOLATION_RUNS = num('BENCH_ISOLATION_RUNS', 20);
const ALL_SCENARIOS = [
  'sqlite',
  'postgres',
  'provider',
  'local',
  'scale',
  'soak',
  'apikey',
  'bbsdk',
  'liveview',
  'console',
  'capacity',
  'runs',
  'instances',
  'egress',
  'waiters',
  'deploy',
  'shares',
  'shared',
  'recording',
];
const SCENARIOS = new Set((process.env.BENCH_SCENARIOS ?? ALL_SCENARIOS.join(',')).split(','));
const WRITE = process.env.BENCH_WRITE ?? (ALL_SCENARIOS.every((s) => SCENARIOS.has(s)) ? 'all' : 'sections');
if (WRITE !== 'all' && WRITE !== 'sections' && WRITE !== 'none')
  throw new Error(`BENCH_WRITE must be all, sections or none: ${WRITE}`);
const SCALE_SESSIONS = num('BENCH_SCALE_SESSIONS', 1_000_000);
const SCALE_PROJECTS = num('BENCH_SCALE_PROJECTS', 1_000);
const SCALE_SAMPLES = num('BENCH_SCALE_SAMPLES', 200);
const SOAK_SEC = num('SOAK_DURATION_SEC', 60);
const SOAK_WARMUP_SEC = num('SOAK_WARMUP_SEC', 120);
const SOAK_CONNECTIONS = num('SOAK_CONNECTIONS', 64);
const APIKEY_REQUESTS = num('BENCH_APIKEY_REQUESTS', 500);
const BBSDK_RUNS = num('BENCH_BBSDK_RUNS', 10);
const BBSDK_WARM = num('BENCH_BBSDK_WARM', 1);
const BBSDK_PAUSE_MS = num('BENCH_BBSDK_PAUSE_MS', 1000);
const LIVEVIEW_CHANGES = num('BENCH_LIVEVIEW_CHANGES', 60);
const LIVEVIEW_EVALUATIONS = num('BENCH_LIVEVIEW_EVALUATIONS', 10_000);
const LIVEVIEW_BLOCK = num('BENCH_LIVEVIEW_BLOCK', 1000);
const CONSOLE_LOADS = num('BENCH_CONSOLE_LOADS', 30);
const CAPACITY_RUNS = num('BENCH_CAPACITY_RUNS', 20);
const CAPACITY_BLOCK = num('BENCH_CAPACITY_BLOCK', 5);
const CAPACITY_WARM = num('BENCH_CAPACITY_WARM', 1);
const CAPACITY_PAUSE_MS = num('BENCH_CAPACITY_PAUSE_MS', 1500);
const CAPACITY_MAX_SESSIONS = num('BENCH_CAPACITY_MAX_SESSIONS', 4);
const CAPACITY_SETTLE_MS = num('BENCH_CAPACITY_SETTLE_MS', 5000);
const CAPACITY_RESERVE_MIB = num('BENCH_CAPACITY_RESERVE_MIB', 4096);
const CAPACITY_HIT_MS = process.env.BENCH_CAPACITY_HIT_MS
  ? Number(process.env.BENCH_CAPACITY_HIT_MS)
  : undefined;
const RUNS_RUNS = num('BENCH_RUNS_RUNS', 30);
const RUNS_SUSTAIN_SEC = num('BENCH_RUNS_SUSTAIN_SEC', 60);
const RUNS_PAUSE_MS = num('BENCH_RUNS_PAUSE_MS', 1500);
const WAITERS_STREAMS = num('BENCH_WAITERS_STREAMS', 1000);
const SHARES_CLAIMS = num('BENCH_SHARES_CLAIMS', 500);
const SHARED_ROUNDS = num('BENCH_SHARED_ROUNDS', 10);
const INSTANCES_OPTIONS = {
  requests: num('BENCH_INSTANCES_REQUESTS', 300),
  cdpRoundTrips: num('BENCH_INSTANCES_CDP', 1000),
  connects: num('BENCH_INSTANCES_CONNECTS', 10),
  grid: process.env.BENCH_INSTANCES_GRID !== '0',
  gridRuns: num('BENCH_INSTANCES_GRID_RUNS', 15),
  rateSec: num('BENCH_INSTANCES_RATE_SEC', 20),
  rateClients: num('BENCH_INSTANCES_RATE_CLIENTS', 4),
  standInClients: num('BENCH_INSTANCES_STANDIN_CLIENTS', 16),
  slotsPerNode: num('BENCH_INSTANCES_SLOTS', 2),
};
const EGRESS_LOADS = num('BENCH_EGRESS_LOADS', 30);
const DEPLOY_OPTIONS = {
  starts: num('BENCH_DEPLOY_STARTS', 3),
  runs: num('BENCH_DEPLOY_RUNS', 10),
  pauseMs: num('BENCH_DEPLOY_PAUSE_MS', 1500),
  build: process.env.BENCH_DEPLOY_BUILD === 'always' ? ('always' as const) : ('absent' as const),
};
const RECORDING_OPTIONS = {
  runs: num('BENCH_RECORDING_RUNS', 8),
  loads: num('BENCH_RECORDING_LOADS', 10),
  windowSec: num('BENCH_RECORDING_WINDOW_SEC', 10),
  pauseMs: num('BENCH_RECORDING_PAUSE_MS', 1500),
};
const PROFILE = process.env.BENCH_PROFILE ?? 'auto';
const TARGET_RATIO = 0.35;
const TARGET_P99_MS = 20;
const TARGET_OVERHEAD_MS = 2;

const started = new Date();
const loadBefore = loadavg()[0]!;
const log = (line: string) => console.log(line);
const failures: string[] = [];
const children: Child[] = [];

async function scenario<T>(name: string, run: () => Promise<T>): Promise<T | undefined> {
  log(`\n== ${name}`);
  try {
    return await run();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    log(`  FAILED: ${message.slice(0, 2000)}`);
    failures.push(`${name}: ${message.split('\n')[0]!.slice(0, 300)}`);
    return undefined;
  }
}

/** Runs a browser benchmark script in its own process (bounded to 5 minutes); returns its output. */
function runSpawned(script: string, runs: number): Promise<string> {
  return new Promise((done, fail) => {
    const child = spawn(
      process.execPath,
      ['--conditions=source', resolve(import.meta.dirname, script), String(runs)],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c));
    child.stderr.on('data', (c: Buffer) => (out += c));
    const timer = setTimeout(() => child.kill('SIGKILL'), 300_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (code === 0) done(out.trim());
      else fail(new Error(`${script} exited with ${code}:\n${out.trim().slice(-1500)}`));
    });
  });
}

const pass = (ok: boolean) => (ok ? '**pass**' : '**MISS**');
const summaryRow = (db: string, s: Summary) => [
  `${db}: ${s.name}`,
  fmt(s.rps, 0),
  String(s.p50),
  String(s.p99),
  s.runs.map((r) => r.toFixed(0)).join(' / '),
  fmt(s.cpuUsPerRequest, 0),
  `${s.non2xx}/${s.errors}`,
];

const throughput: ThroughputResult[] = [];
let overhead: OverheadResult | undefined;
let localTable: string | undefined;
let isolationTable: string | undefined;
let scale: ScaleBenchResult | undefined;
let soak: SoakResult | undefined;
let apiKeys: ApiKeyAuthResult | undefined;
let sdkFlow: BrowserbaseSdkFlowResult | undefined;
let liveView: LiveViewBenchResult | undefined;
let consoleBench: ConsoleBenchResult | undefined;
let capacity: CapacityResult | undefined;
let runsBench: RunsResult | undefined;
let egressTable: string | undefined;
let waitersTable: string | undefined;
let sharesTable: string | undefined;
let sharedTable: string | undefined;
let instancesBench: InstancesResult | undefined;
let deployBench: DeployResult | undefined;
let recordingBench: RecordingBenchResult | undefined;
let profile: ProfileTop[] | undefined;
let profileNote = '';

try {
  const standIn = await startChild({
    script: resolve(import.meta.dirname, 'browserbaseStandIn.ts'),
    env: {},
    port: await freePort(),
    readyPath: '/__stats',
  });
  children.push(standIn);
  const bare = await startChild({
    script: resolve(import.meta.dirname, 'bareKoaServer.ts'),
    env: {},
    port: await freePort(),
    readyPath: '/healthz',
  });
  children.push(bare);
  const bareUrl = `${bare.url}/v1/projects`;
  const barePid = bare.child.pid;
  if (barePid === undefined) throw new Error('the bare Koa server has no pid');
  const common = { bareUrl, barePid, rounds: ROUNDS, durationSec: DURATION, connections: CONNECTIONS, log };
  const providerEnv = browserbaseEnv(standIn.url);

  if (SCENARIOS.has('sqlite')) {
    const r = await scenario('API throughput, SQLite', () =>
      runApiThroughput({ ...common, db: 'sqlite', env: providerEnv }),
    );
    if (r) throughput.push(r);
  }
  if (SCENARIOS.has('postgres')) {
    const r = await scenario('API throughput, PostgreSQL', async () => {
      const pg = await startPostgresServer();
      try {
        const url = await createDatabase(pg.adminUrl, `bench_${process.pid}`);
        return await runApiThroughput({
          ...common,
          db: 'postgres',
          env: { ...providerEnv, DATABASE_URL: url },
        });
      } finally {
        await pg.stop();
      }
    });
    if (r) throughput.push(r);
  }
  if (SCENARIOS.has('provider')) {
    overhead = await scenario('Provider overhead (Browserbase stand-in), SQLite', () =>
      runProviderOverhead({
        standInUrl: standIn.url,
        env: {},
        rounds: ROUNDS,
        requests: PROVIDER_REQUESTS,
        connections: CONNECTIONS,
        durationSec: DURATION,
        log,
      }),
    );
  }
  if (SCENARIOS.has('local')) {
    localTable = await scenario(`Local provider (bench/localProvider.ts ${LOCAL_RUNS})`, () =>
      runSpawned('localProvider.ts', LOCAL_RUNS),
    );
    if (localTable) log(localTable);
    isolationTable = await scenario(`Browser isolation (bench/browserIsolation.ts ${ISOLATION_RUNS})`, () =>
      runSpawned('browserIsolation.ts', ISOLATION_RUNS),
    );
    if (isolationTable) log(isolationTable);
  }

  if (SCENARIOS.has('scale')) {
    scale = await scenario(`Scale (${SCALE_SESSIONS} sessions over ${SCALE_PROJECTS} projects)`, () =>
      runScaleBench({
        log,
        sessions: SCALE_SESSIONS,
        projects: SCALE_PROJECTS,
        samples: SCALE_SAMPLES,
        command: 'npm run bench',
      }),
    );
  }

  if (SCENARIOS.has('soak')) {
    soak = await scenario(`Load and soak (${SOAK_WARMUP_SEC} s warm-up + ${SOAK_SEC} s)`, () =>
      runSoak({
        log,
        dialect: process.env.SOAK_DIALECT === 'postgres' ? 'postgres' : 'sqlite',
        durationSec: SOAK_SEC,
        warmupSec: SOAK_WARMUP_SEC,
        connections: SOAK_CONNECTIONS,
      }),
    );
  }

  if (SCENARIOS.has('apikey')) {
    apiKeys = await scenario('API key authentication vs sign-in token, SQLite', () =>
      runApiKeyAuth({
        env: providerEnv,
        rounds: ROUNDS,
        requests: APIKEY_REQUESTS,
        durationSec: DURATION,
        connections: CONNECTIONS,
        log,
      }),
    );
  }

  if (SCENARIOS.has('bbsdk')) {
    sdkFlow = await scenario(`Browserbase SDK flow, local provider (${BBSDK_RUNS} runs per side)`, () =>
      runBrowserbaseSdkFlow({ runs: BBSDK_RUNS, warmBrowsers: BBSDK_WARM, pauseMs: BBSDK_PAUSE_MS, log }),
    );
  }

  if (SCENARIOS.has('liveview')) {
    liveView = await scenario(
      `Live view, local provider (${LIVEVIEW_CHANGES} changes, ${LIVEVIEW_EVALUATIONS} evaluations per side)`,
      () =>
        runLiveViewBench({
          changes: LIVEVIEW_CHANGES,
          evaluations: LIVEVIEW_EVALUATIONS,
          blockSize: LIVEVIEW_BLOCK,
          log,
        }),
    );
  }

  if (SCENARIOS.has('console')) {
    consoleBench = await scenario(`Console, local provider (${CONSOLE_LOADS} page loads per side)`, () =>
      runConsoleBench({ loads: CONSOLE_LOADS, log }),
    );
  }

  if (SCENARIOS.has('capacity')) {
    capacity = await scenario(
      `Capacity, local provider (${CAPACITY_RUNS} runs per side; ${CAPACITY_MAX_SESSIONS} idle sessions)`,
      () =>
        runCapacity({
          runs: CAPACITY_RUNS,
          block: CAPACITY_BLOCK,
          warmBrowsers: CAPACITY_WARM,
          pauseMs: CAPACITY_PAUSE_MS,
          maxSessions: CAPACITY_MAX_SESSIONS,
          settleMs: CAPACITY_SETTLE_MS,
          reserveMiB: CAPACITY_RESERVE_MIB,
          hitMs: CAPACITY_HIT_MS,
          log,
        }),
    );
  }

  if (SCENARIOS.has('runs')) {
    runsBench = await scenario(
      `Runs, local provider (${RUNS_RUNS} runs per side; ${RUNS_SUSTAIN_SEC} s sustained)`,
      () => runRunsBench({ runs: RUNS_RUNS, sustainSec: RUNS_SUSTAIN_SEC, pauseMs: RUNS_PAUSE_MS, log }),
    );
  }

  if (SCENARIOS.has('egress')) {
    egressTable = await scenario(
      `Egress: upstream proxies, metering, extensions (bench/egress.ts ${EGRESS_LOADS})`,
      () => runSpawned('egress.ts', EGRESS_LOADS),
    );
    if (egressTable) log(egressTable);
  }
  if (SCENARIOS.has('waiters')) {
    waitersTable = await scenario(`Idle log streams (bench/runWaiters.ts ${WAITERS_STREAMS})`, () =>
      runSpawned('runWaiters.ts', WAITERS_STREAMS),
    );
    if (waitersTable) log(waitersTable);
  }
  if (SCENARIOS.has('shares')) {
    sharesTable = await scenario(
      `Session shares across instances (bench/sessionShares.ts ${SHARES_CLAIMS})`,
      () => runSpawned('sessionShares.ts', SHARES_CLAIMS),
    );
    if (sharesTable) log(sharesTable);
  }
  if (SCENARIOS.has('shared')) {
    sharedTable = await scenario(
      `State no instance owns: forwarded CDP and shared contexts (bench/sharedState.ts ${SHARED_ROUNDS})`,
      () => runSpawned('sharedState.ts', SHARED_ROUNDS),
    );
    if (sharedTable) log(sharedTable);
  }
  if (SCENARIOS.has('instances')) {
    instancesBench = await scenario(
      `Several instances and the Selenium Grid (${INSTANCES_OPTIONS.requests} requests, ${INSTANCES_OPTIONS.cdpRoundTrips} CDP round trips per side)`,
      () => runInstancesBench({ ...INSTANCES_OPTIONS, log }),
    );
    if (instancesBench?.figures.gridError)
      failures.push(`instances (Grid): ${instancesBench.figures.gridError}`);
    if (instancesBench?.figures.standInError)
      failures.push(`instances (Grid stand-in): ${instancesBench.figures.standInError}`);
  }
  if (SCENARIOS.has('deploy')) {
    deployBench = await scenario(
      `Deploy: the container image, cold starts and nginx (${DEPLOY_OPTIONS.starts} starts, ${DEPLOY_OPTIONS.runs} rounds per side)`,
      () => runDeployBench({ ...DEPLOY_OPTIONS, log }),
    );
  }
  if (SCENARIOS.has('recording')) {
    recordingBench = await scenario(
      `Recordings: recorded against not recorded, local provider (${RECORDING_OPTIONS.runs} rounds of 3 sessions per side)`,
      () => runRecordingBench({ ...RECORDING_OPTIONS, log }),
    );
  }

  const sqlite = throughput.find((t) => t.db === 'sqlite');
  const missed =
    (sqlite && (sqlite.ratio < TARGET_RATIO || sqlite.list.p99 >= TARGET_P99_MS)) ||
    (overhead && overhead.overheadP50 > TARGET_OVERHEAD_MS);
  if (PROFILE === 'always' || (PROFILE === 'auto' && missed)) {
    await scenario('CPU profile of the server (SQLite): list, create, session create', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'browserdeck-prof-'));
      try {
        const { server, listToken, createToken } = await seededServer(providerEnv, [
          '--cpu-prof',
          `--cpu-prof-dir=${dir}`,
        ]);
        const windows: ProfileWindow[] = [];
        const phase = async (name: string, run: () => Promise<unknown>) => {
          const startUs = monotonicUs();
          await run();
          windows.push({ name, startUs, endUs: monotonicUs() });
        };
        try {
          await phase('GET /v1/projects (20)', () => listLoad(server.url, listToken, DURATION, CONNECTIONS));
          await phase('POST /v1/projects', () => createLoad(server.url, createToken, DURATION, CONNECTIONS));
          const project = (await (
            await fetch(`${server.url}/v1/projects`, { headers: { Authorization: `Bearer ${listToken}` } })
          ).json()) as Array<{ id: string }>;
          await phase('POST …/sessions (Browserbase stand-in)', () =>
            load({
              url: `${server.url}/v1/browserbase/projects/${project[0]!.id}/sessions`,
              method: 'POST',
              headers: { Authorization: `Bearer ${listToken}`, 'Content-Type': 'application/json' },
              body: '{}',
              connections: CONNECTIONS,
              durationSec: DURATION,
            }),
          );
        } finally {
          await server.stop();
        }
        profile = summariseProfile(dir, windows);
        if (profile.every((p) => p.samples === 0)) profile = summariseProfile(dir);
        profileNote = `one ${DURATION}-s run each of GET /v1/projects, POST /v1/projects and POST …/sessions at ${CONNECTIONS} connections, server started with --cpu-prof`;
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
} finally {
  for (const child of children.reverse()) await child.stop().catch(() => {});
}

// ---- report -------------------------------------------------------------------------------------
const machine = `${cpus().length} CPUs (${cpus()[0]?.model ?? 'unknown'}), ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM (${(freemem() / 2 ** 30).toFixed(1)} GiB free at the end), Node ${process.version}, ${process.platform}/${process.arch}; 1-min load average ${loadBefore.toFixed(2)} before the run (a 2-core machine shared with other work: a load above ~0.5 before the run means the figures are depressed)`;
const command = `npm run bench  (= node --conditions=source bench/run.ts; BENCH_ROUNDS=${ROUNDS} BENCH_DURATION_SEC=${DURATION} BENCH_CONNECTIONS=${CONNECTIONS} BENCH_PROVIDER_REQUESTS=${PROVIDER_REQUESTS} BENCH_LOCAL_RUNS=${LOCAL_RUNS} BENCH_SCENARIOS=${[...SCENARIOS].join(',')} BENCH_SCALE_SESSIONS=${SCALE_SESSIONS} BENCH_SCALE_PROJECTS=${SCALE_PROJECTS} BENCH_SCALE_SAMPLES=${SCALE_SAMPLES} SOAK_WARMUP_SEC=${SOAK_WARMUP_SEC} SOAK_DURATION_SEC=${SOAK_SEC} SOAK_CONNECTIONS=${SOAK_CONNECTIONS} BENCH_APIKEY_REQUESTS=${APIKEY_REQUESTS} BENCH_BBSDK_RUNS=${BBSDK_RUNS} BENCH_BBSDK_WARM=${BBSDK_WARM} BENCH_BBSDK_PAUSE_MS=${BBSDK_PAUSE_MS} BENCH_LIVEVIEW_CHANGES=${LIVEVIEW_CHANGES} BENCH_LIVEVIEW_EVALUATIONS=${LIVEVIEW_EVALUATIONS} BENCH_LIVEVIEW_BLOCK=${LIVEVIEW_BLOCK} BENCH_CONSOLE_LOADS=${CONSOLE_LOADS} BENCH_CAPACITY_RUNS=${CAPACITY_RUNS} BENCH_RUNS_RUNS=${RUNS_RUNS} BENCH_RUNS_SUSTAIN_SEC=${RUNS_SUSTAIN_SEC} BENCH_RUNS_PAUSE_MS=${RUNS_PAUSE_MS})`;
const out: string[] = [];
out.push('# Benchmarks', '');
out.push(
  'Generated by `npm run bench` (bench/run.ts). Figures are medians over alternating rounds measured side by side in one run on a shared machine: read the **ratios**, not the absolute numbers.',
  '',
);
out.push(`- Date: ${started.toISOString()} (took ${((Date.now() - started.getTime()) / 1000).toFixed(0)} s)`);
out.push(`- Machine: ${machine}`);
out.push(`- Command: \`${command}\``, '');

out.push('## 1. API throughput', '');
out.push(
  `autocannon, ${CONNECTIONS} connections, ${DURATION}-s runs, ${ROUNDS} rounds of bare → list → create. The server runs in its own process (LOG_LEVEL=silent), as do the bare Koa app and the load generator. Latencies are autocannon's (whole ms, 2xx only); req/s and latencies are medians over the rounds. "Server CPU µs/req" is the serving process's user + system time (/proc) over the run divided by the requests answered: it moves less than req/s when other work shares the cores.`,
  '',
);
const tRows = throughput.flatMap((t) => [
  summaryRow(t.db, t.bare),
  summaryRow(t.db, t.list),
  summaryRow(t.db, t.create),
]);
out.push(
  table(
    [
      'measurement',
      'req/s (median)',
      'p50 ms',
      'p99 ms',
      'req/s per round',
      'server CPU µs/req',
      'non-2xx/errors',
    ],
    tRows,
  ),
  '',
);
const targets: string[][] = [];
for (const t of throughput) {
  targets.push([
    `${t.db}: list ÷ bare req/s`,
    `${(t.ratio * 100).toFixed(1)} %`,
    t.db === 'sqlite' ? '≥ 35 %' : '(info)',
    t.db === 'sqlite'
      ? `${pass(t.ratio >= TARGET_RATIO)} (${((t.ratio - TARGET_RATIO) * 100).toFixed(1)} pts)`
      : '',
  ]);
  targets.push([
    `${t.db}: bare ÷ list server CPU per request`,
    `${(t.cpuRatio * 100).toFixed(1)} %`,
    '(info: the same ratio, less sensitive to a busy machine)',
    '',
  ]);
  targets.push([
    `${t.db}: list p99`,
    `${t.list.p99} ms`,
    '< 20 ms',
    `${pass(t.list.p99 < TARGET_P99_MS)} (${t.list.p99 - TARGET_P99_MS >= 0 ? '+' : ''}${t.list.p99 - TARGET_P99_MS} ms)`,
  ]);
  targets.push([
    `${t.db}: create ÷ bare req/s`,
    `${((t.create.rps / t.bare.rps) * 100).toFixed(1)} %`,
    '(info)',
    '',
  ]);
}

out.push('## 2. Provider overhead (Browserbase stand-in)', '');
if (overhead) {
  const o = overhead;
  out.push(
    `Sequential creates (one request in flight, ${o.samples} timed per side over ${ROUNDS} rounds, alternating), client-side wall time with fetch keep-alive, SQLite. "Stand-in direct" is the same client POSTing the stand-in's /v1/sessions; "stand-in service" is the stand-in's own time per request while serving the API's creates.`,
    '',
  );
  out.push(
    table(
      ['measurement', 'p50 ms', 'p99 ms'],
      [
        ['stand-in direct (client → stand-in)', fmt(o.direct.p50, 2), fmt(o.direct.p99, 2)],
        ['stand-in service time (server side)', fmt(o.standInService.p50, 3), fmt(o.standInService.p99, 3)],
        ['API POST …/sessions (client → API → stand-in)', fmt(o.api.p50, 2), fmt(o.api.p99, 2)],
      ],
    ),
    '',
  );
  out.push(
    `At ${CONNECTIONS} connections for ${DURATION} s: ${fmt(o.concurrent.rps, 0)} creates/s, p50 ${o.concurrent.p50} ms, p99 ${o.concurrent.p99} ms, non-2xx ${o.concurrent.non2xx}, errors ${o.concurrent.errors}.`,
    '',
  );
  targets.push([
    'provider: API create p50 − stand-in p50',
    `${fmt(o.overheadP50, 2)} ms`,
    '≤ 2 ms',
    `${pass(o.overheadP50 <= TARGET_OVERHEAD_MS)} (${o.overheadP50 - TARGET_OVERHEAD_MS >= 0 ? '+' : ''}${fmt(o.overheadP50 - TARGET_OVERHEAD_MS, 2)} ms)`,
  ]);
} else out.push('Not measured in this run.', '');

out.push('## 3. Local provider', '');
out.push(
  localTable
    ? `\`bench/localProvider.ts ${LOCAL_RUNS}\`, spawned:\n\n${localTable}\n`
    : 'Not measured in this run.\n',
);
if (isolationTable)
  out.push(`\`bench/browserIsolation.ts ${ISOLATION_RUNS}\`, spawned:\n\n${isolationTable}\n`);

out.push(scale ? scale.markdown.trimEnd() : '## 4. Scale\n\nNot measured in this run.', '');
for (const f of scale?.figures ?? []) {
  targets.push([
    `scale, ${f.dialect}: sessions?status=RUNNING&limit=20 p95`,
    `${fmt(f.list.p95, 2)} ms`,
    `≤ ${SCALE_TARGETS.listP95Ms} ms`,
    pass(f.list.p95 <= SCALE_TARGETS.listP95Ms),
  ]);
  targets.push([
    `scale, ${f.dialect}: sessions/dashboard/stats p95`,
    `${fmt(f.stats.p95, 2)} ms`,
    `≤ ${SCALE_TARGETS.statsP95Ms} ms`,
    pass(f.stats.p95 <= SCALE_TARGETS.statsP95Ms),
  ]);
  for (const [interval, latency] of [
    ['hour', f.seriesHour],
    ['day', f.seriesDay],
  ] as const)
    targets.push([
      `scale, ${f.dialect}: dashboard/stats?interval=${interval} p95`,
      `${fmt(latency.p95, 2)} ms`,
      `≤ ${SCALE_TARGETS.seriesP95Ms} ms`,
      pass(latency.p95 <= SCALE_TARGETS.seriesP95Ms),
    ]);
}

out.push(soak ? soak.markdown.trimEnd() : '## 5. Load and soak\n\nNot measured in this run.', '');
if (soak) {
  targets.push([
    'soak: errors (unexpected status or network)',
    String(soak.errors),
    '0',
    pass(soak.errors === 0),
  ]);
  targets.push([
    'soak: server RSS growth, first → last 10 s',
    `${(soak.rss.growth * 100).toFixed(1)} %`,
    '< 10 %',
    pass(soak.rss.growth < 0.1),
  ]);
}

// The sections a partial run may replace on their own (BENCH_WRITE=sections) carry markers.
const sections: Record<string, string> = {};
const sectionCommand = `\`${WRITE === 'sections' ? `BENCH_SCENARIOS=${[...SCENARIOS].join(',')} ` : ''}npm run bench\``;
sections.apikey = markedSection(
  'apikey',
  apiKeys
    ? `${apiKeys.markdown.trimEnd()}\n\nCommand: ${sectionCommand}.`
    : '## 6. API key authentication\n\nNot measured in this run.',
);
sections.bbsdk = markedSection(
  'bbsdk',
  sdkFlow
    ? `${sdkFlow.markdown.trimEnd()}\n\nCommand: ${sectionCommand}.`
    : '## 7. Browserbase SDK: create → connected → first evaluate (local provider)\n\nNot measured in this run.',
);
sections.liveview = markedSection(
  'liveview',
  liveView
    ? `${liveView.markdown.trimEnd()}\n\nCommand: ${sectionCommand}.`
    : '## 8. Live view\n\nNot measured in this run.',
);
sections.console = markedSection(
  'console',
  consoleBench
    ? `${consoleBench.markdown.trimEnd()}\n\nCommand: ${sectionCommand}.`
    : '## 9. Console\n\nNot measured in this run.',
);
sections.capacity = markedSection(
  'capacity',
  capacity
    ? `${capacity.markdown.trimEnd()}\n\nCommand: ${sectionCommand}.`
    : '## 10. Capacity\n\nNot measured in this run.',
);
sections.runs = markedSection(
  'runs',
  runsBench
    ? `${runsBench.markdown.trimEnd()}\n\nCommand: ${sectionCommand}.`
    : '## 11. Runs\n\nNot measured in this run.',
);
sections.instances = markedSection(
  'instances',
  instancesBench
    ? `${instancesBench.markdown.trimEnd()}\n\nCommand: ${sectionCommand}.`
    : '## 12. Several instances and the Selenium Grid\n\nNot measured in this run.',
);
sections.egress = markedSection(
  'egress',
  egressTable
    ? `## 13. Egress: upstream proxies, metering, extensions\n\n\`bench/egress.ts ${EGRESS_LOADS}\`, spawned (local provider, real Chromium, a loopback site and a loopback proxy-chain upstream):\n\n${egressTable.trimEnd()}\n\nCommand: ${sectionCommand}.`
    : '## 13. Egress: upstream proxies, metering, extensions\n\nNot measured in this run.',
);
sections.waiters = markedSection(
  'waiters',
  waitersTable
    ? `## 14. Idle log streams: what waiting costs\n\n\`bench/runWaiters.ts ${WAITERS_STREAMS}\`, spawned:\n\n${waitersTable.trimEnd()}\n\nCommand: ${sectionCommand}.`
    : '## 14. Idle log streams: what waiting costs\n\nNot measured in this run.',
);
sections.shares = markedSection(
  'shares',
  sharesTable
    ? `## 16. Session shares across instances: what a create pays\n\n\`bench/sessionShares.ts ${SHARES_CLAIMS}\`, spawned:\n\n${sharesTable.trimEnd()}\n\nA local create claims its account's slot once (after this instance's own count) and frees it once when its session ends: the claim + free row is what the cluster-wide share adds to a session's life. Set it against section 10's create (\`POST …/sessions\` → connectUrl) figures. Command: ${sectionCommand}.`
    : '## 16. Session shares across instances: what a create pays\n\nNot measured in this run.',
);
sections.shared = markedSection(
  'shared',
  sharedTable
    ? `## 17. State no instance owns: a session through the other instance, a context from the database\n\n\`bench/sharedState.ts ${SHARED_ROUNDS}\`, spawned:\n\n${sharedTable.trimEnd()}\n\nA context's profile is a zip in the database (\`stored_blobs\`), one per save; each instance keeps the saves it opened unpacked under \`DATA_DIR/context-cache/<instance>\`, so the second open on an instance reads local disk (as every open did before profiles were shared), the first reads the row and unpacks it. A session saving to a context runs on a staged copy; its release zips the profile and stores it before it answers. Command: ${sectionCommand}.`
    : '## 17. State no instance owns: a session through the other instance, a context from the database\n\nNot measured in this run.',
);
sections.recording = markedSection(
  'recording',
  recordingBench
    ? `${recordingBench.markdown.trimEnd()}\n\nCommand: ${sectionCommand}.`
    : '## 18. Recordings (issue 39): what recording a session costs\n\nNot measured in this run.',
);
sections.deploy = markedSection(
  'deploy',
  deployBench
    ? `${deployBench.markdown.trimEnd()}\n\nCommand: ${sectionCommand}.`
    : '## 15. Deploy: the container image, its cold start, and nginx in front\n\nNot measured in this run.',
);
out.push(
  sections.apikey,
  '',
  sections.bbsdk,
  '',
  sections.liveview,
  '',
  sections.console,
  '',
  sections.capacity,
  '',
  sections.runs,
  '',
  sections.instances,
  '',
  sections.egress,
  '',
  sections.waiters,
  '',
  sections.deploy,
  '',
  sections.shares,
  '',
  sections.shared,
  '',
  sections.recording,
  '',
);
if (apiKeys) {
  for (const side of ['bearerKey', 'headerKey'] as const) {
    const delta = apiKeys.deltaP50[side];
    targets.push([
      `apikey: ${side === 'bearerKey' ? 'Bearer bdk_…' : 'X-BB-API-Key'} p50 − token p50 (GET …/sessions)`,
      `${delta >= 0 ? '+' : ''}${fmt(delta, 3)} ms`,
      `≤ +${API_KEY_TARGET_MS} ms`,
      pass(delta <= API_KEY_TARGET_MS),
    ]);
  }
}
if (sdkFlow) {
  targets.push([
    'bbsdk: SDK create → connected → first evaluate p50 / p95',
    `${fmt(sdkFlow.figures.sdk.total.p50, 1)} / ${fmt(sdkFlow.figures.sdk.total.p95, 1)} ms`,
    `(info; native API ${fmt(sdkFlow.figures.native.total.p50, 1)} / ${fmt(sdkFlow.figures.native.total.p95, 1)} ms)`,
    '',
  ]);
}

if (liveView) {
  const { latency, still, changing } = liveView.figures;
  targets.push([
    'liveview: change → frame on the viewer p50 / p95',
    `${fmt(latency.p50, 1)} / ${fmt(latency.p95, 1)} ms`,
    '(info)',
    '',
  ]);
  const worst = Math.max(still.overheadP50, changing.overheadP50);
  targets.push([
    'liveview: driving client evaluate p50 with a viewer ÷ without − 1 (worst expression)',
    `${worst >= 0 ? '+' : ''}${fmt(worst * 100, 1)} %`,
    `≤ ${LIVE_VIEW_OVERHEAD_TARGET * 100} %`,
    pass(worst <= LIVE_VIEW_OVERHEAD_TARGET),
  ]);
}

if (consoleBench) {
  const { size, cached, uncached } = consoleBench.figures;
  targets.push([
    "console: JavaScript and CSS, gzipped (first screen's share)",
    `${fmt(size.totalGzip / 1000, 1)} KB (${fmt(size.firstScreenGzip / 1000, 1)} KB)`,
    `≤ ${size.budgetBytes / 1000} KB`,
    pass(size.totalGzip <= size.budgetBytes),
  ]);
  targets.push([
    'console: first rendered list p50 from navigation, cached / uncached',
    `${fmt(cached.firstRow.p50, 0)} / ${fmt(uncached.firstRow.p50, 0)} ms`,
    `≤ ${CONSOLE_FIRST_LIST_TARGET_MS} ms`,
    pass(Math.max(cached.firstRow.p50, uncached.firstRow.p50) <= CONSOLE_FIRST_LIST_TARGET_MS),
  ]);
}

if (capacity) {
  const { sides, ratio } = capacity.figures;
  targets.push([
    'capacity: back-to-back create → connected → first evaluate p50 / p95',
    `${fmt(sides.backToBack.total.p50, 1)} / ${fmt(sides.backToBack.total.p95, 1)} ms`,
    `≤ ${CAPACITY_TARGETS.backToBackP50Ms} / ≤ ${CAPACITY_TARGETS.backToBackP95Ms} ms`,
    pass(
      sides.backToBack.total.p50 <= CAPACITY_TARGETS.backToBackP50Ms &&
        sides.backToBack.total.p95 <= CAPACITY_TARGETS.backToBackP95Ms,
    ),
  ]);
  targets.push([
    'capacity: warm total p50 ÷ already-running Chromium p50',
    `${fmt(ratio.warm, 2)}×`,
    `≤ ${CAPACITY_TARGETS.warmOverFloorP50}×`,
    pass(ratio.warm <= CAPACITY_TARGETS.warmOverFloorP50),
  ]);
}

if (runsBench) {
  const h = runsHeadline(runsBench.figures);
  const { sustained } = runsBench.figures;
  targets.push([
    'runs: agent run end to end (HTTP with wait) p50 / p95',
    `${fmt(h.endToEnd.p50, 1)} / ${fmt(h.endToEnd.p95, 1)} ms`,
    `p50 ≤ ${RUNS_TARGETS.p50Ms} ms`,
    pass(h.endToEnd.p50 <= RUNS_TARGETS.p50Ms),
  ]);
  targets.push([
    'runs: end-to-end p50 ÷ the script by hand (fresh node) p50',
    `${fmt(h.ratio, 2)}×`,
    `≤ ${RUNS_TARGETS.overFloorP50}×`,
    pass(h.ratio <= RUNS_TARGETS.overFloorP50),
  ]);
  targets.push([
    "runs: runner spawn p50 (a run's process spawned → ready)",
    `${fmt(h.spawn.p50, 0)} ms`,
    `≤ ${RUNS_TARGETS.spawnP50Ms} ms`,
    pass(h.spawn.p50 <= RUNS_TARGETS.spawnP50Ms),
  ]);
  targets.push([
    'runs: sustained at RUN_CONCURRENCY=2, failures',
    `${sustained.failures.length} (${fmt(sustained.runsPerSec, 2)} runs/s)`,
    '0',
    pass(sustained.failures.length === 0 && sustained.runs > 0),
  ]);
}

if (instancesBench) {
  const h = instancesHeadline(instancesBench.figures);
  targets.push([
    'instances: forwarding adds to a request p50',
    `${fmt(h.requestAdded, 2)} ms`,
    `≤ ${INSTANCES_TARGETS.requestAddedP50Ms} ms`,
    pass(h.requestAdded <= INSTANCES_TARGETS.requestAddedP50Ms),
  ]);
  targets.push([
    'instances: forwarding adds to a CDP round trip p50',
    `${fmt(h.cdpAdded, 3)} ms`,
    `≤ ${INSTANCES_TARGETS.cdpAddedP50Ms} ms`,
    pass(h.cdpAdded <= INSTANCES_TARGETS.cdpAddedP50Ms),
  ]);
  if (h.grid) {
    targets.push([
      'instances: Grid provider create p50 − the Grid’s own new session p50',
      `${fmt(h.gridCreateAdded, 1)} ms`,
      `≤ ${INSTANCES_TARGETS.gridCreateOverGridP50Ms} ms`,
      pass(h.gridCreateAdded <= INSTANCES_TARGETS.gridCreateOverGridP50Ms),
    ]);
    targets.push([
      'instances: Grid provider create → connected → first evaluate p50 / p95',
      `${fmt(h.grid.browserdeck.p50, 1)} / ${fmt(h.grid.browserdeck.p95, 1)} ms`,
      `(info; the Grid direct ${fmt(h.grid.direct.p50, 1)} / ${fmt(h.grid.direct.p95, 1)} ms)`,
      '',
    ]);
    targets.push([
      'instances: Grid sessions/s, 2 instances ÷ 1 (the real Grid, on this host)',
      `${fmt(h.rateRatio, 2)}×`,
      `≥ ${INSTANCES_TARGETS.twoOverOneRate}×`,
      pass(h.rateRatio >= INSTANCES_TARGETS.twoOverOneRate),
    ]);
  }
  if (instancesBench.figures.standIn)
    targets.push([
      'instances: Grid provider sessions/s, 2 instances ÷ 1 (zero-latency Grid stand-in)',
      `${fmt(h.standIn.ratio, 2)}×`,
      `≥ ${INSTANCES_TARGETS.twoOverOneRate}×`,
      pass(h.standIn.ratio >= INSTANCES_TARGETS.twoOverOneRate),
    ]);
}

if (recordingBench) {
  const { ratio, pageLoad, createToEvaluate } = recordingBench.figures;
  targets.push([
    'recording: static page load p50, recorded ÷ not − 1',
    `${ratio.pageLoadP50 - 1 >= 0 ? '+' : ''}${fmt((ratio.pageLoadP50 - 1) * 100, 1)} % (${fmt(pageLoad.on.p50, 1)} / ${fmt(pageLoad.off.p50, 1)} ms)`,
    `≤ +${RECORDING_PAGE_LOAD_TARGET * 100} %`,
    pass(ratio.pageLoadP50 - 1 <= RECORDING_PAGE_LOAD_TARGET),
  ]);
  targets.push([
    'recording: create → first evaluate p50, recorded ÷ not',
    `${fmt(ratio.createToEvaluateP50, 2)}×`,
    `(info; not recorded ${fmt(createToEvaluate.off.p50, 1)} ms)`,
    '',
  ]);
}

if (deployBench) {
  const { sessions, ratio } = deployBench.figures;
  targets.push([
    'deploy: create → connected → first evaluate p50, nginx (TLS) ÷ direct / container ÷ direct',
    `${fmt(ratio.nginx.total, 2)}× / ${fmt(ratio.container.total, 2)}×`,
    `(info; direct ${fmt(sessions.direct.total.p50, 1)} ms)`,
    '',
  ]);
}

out.push('## Targets', '');
out.push(table(['target', 'measured', 'goal', 'verdict'], targets), '');

if (profile) {
  out.push('## CPU profile (server process)', '');
  out.push(
    `${profileNote}. Self-time shares of the busy (non-idle) samples in each phase; a native frame is named with its nearest JavaScript caller (\`native ← caller\`) and counted in that caller's module.`,
    '',
  );
  for (const p of profile) {
    out.push(`### ${p.name} (${p.samples} samples, ${(p.idle * 100).toFixed(0)} % idle)`, '');
    out.push(
      table(
        ['module', 'self %'],
        p.modules.map((m) => [m.name, (m.share * 100).toFixed(1)]),
      ),
      '',
    );
    out.push(
      table(
        ['function', 'self %'],
        p.functions.map((f) => [`\`${f.name}\``, (f.share * 100).toFixed(1)]),
      ),
      '',
    );
  }
}
if (failures.length) out.push('## Failures in this run', '', ...failures.map((f) => `- ${f}`), '');

const report = `${out.join('\n')}\n`;
console.log(`\n${report}`);
// Hand-written analysis below this marker in the existing file is kept across regenerations.
const MARKER = '<!-- analysis: hand-written, kept by bench/run.ts -->';
const target = process.env.BENCH_OUT ?? resolve(import.meta.dirname, '../docs/benchmarks.md');
const previous = existsSync(target) ? readFileSync(target, 'utf8') : '';
if (WRITE === 'none') {
  console.log(`not written (BENCH_WRITE=none): ${target}`);
} else if (WRITE === 'sections') {
  // A scenario that failed keeps its previous figures: only what this run measured is replaced.
  const measured = Object.keys(sections).filter(
    (name) =>
      (name === 'apikey' && apiKeys) ||
      (name === 'bbsdk' && sdkFlow) ||
      (name === 'liveview' && liveView) ||
      (name === 'console' && consoleBench) ||
      (name === 'capacity' && capacity) ||
      (name === 'runs' && runsBench) ||
      (name === 'instances' && instancesBench) ||
      (name === 'egress' && egressTable) ||
      (name === 'waiters' && waitersTable) ||
      (name === 'shares' && sharesTable) ||
      (name === 'shared' && sharedTable) ||
      (name === 'deploy' && deployBench) ||
      (name === 'recording' && recordingBench),
  );
  const unmarked = [...SCENARIOS].filter((name) => !(name in sections));
  if (unmarked.length)
    console.log(`not written (no marked section; run with BENCH_WRITE=all): ${unmarked.join(', ')}`);
  writeFileSync(
    target,
    replaceMarkedSections(previous, Object.fromEntries(measured.map((name) => [name, sections[name]!])), [
      '## Targets',
      MARKER,
    ]),
  );
  console.log(`sections ${measured.join(', ') || '(none)'} written to ${target}`);
} else {
  const kept = previous.includes(MARKER) ? previous.slice(previous.indexOf(MARKER)) : '';
  writeFileSync(target, kept ? `${report}\n${kept}` : report);
  console.log(`written to ${target}`);
}
process.exit(0);
