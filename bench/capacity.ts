/**
 * Scenario `capacity`: what a session costs on this host, against what Chromium itself costs.
 * In one run, with the same playwright-core and the same Chromium binary the server runs
 * (`findChromium`, honouring CHROMIUM_PATH):
 *
 * - floor: a Chromium the bench launched itself, already running, reached over its DevTools port:
 *   `connectOverCDP('http://127.0.0.1:<port>')` → first `page.evaluate('1 + 1')`, a new connection each run;
 * - warm: the server started as `npm start` starts it (test/serverProcess.ts): create a session →
 *   `connectOverCDP(connectUrl)` → first evaluate, release (untimed), pause so the warm pool refills;
 * - back-to-back: the same flow with no pause, each session released before the next; whether each
 *   create met a ready warm browser is told from its duration;
 *
 * the three in interleaved blocks; then, on a fresh server without warm browsers, the PSS of N idle
 * sessions' processes (every descendant of the server process) per session.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { findChromium } from '@browserdeck/adapters/local-chromium';
import { chromium } from 'playwright-core';
import { chromiumArgs } from '../packages/adapters/src/browsers/local-chromium/chromium/chromiumArgs.ts';
import { type ServerProcess, startServerProcess } from '../test/serverProcess.ts';
import { localSessionApi } from './api.ts';
import { descendantMemory, type ProcessMemory, pssOf } from './processMemory.ts';
import { fmt, median, percentile, table } from './stats.ts';

/** The targets of issue 23. */
export const CAPACITY_TARGETS = { backToBackP50Ms: 150, backToBackP95Ms: 400, warmOverFloorP50: 1.5 };

export type CapacitySide = 'floor' | 'warm' | 'backToBack';
const SIDES: readonly CapacitySide[] = ['floor', 'warm', 'backToBack'];
export type CapacityPhase = 'create' | 'connect' | 'evaluate' | 'total';
const PHASES: readonly CapacityPhase[] = ['create', 'connect', 'evaluate', 'total'];
/** The timed phases, and the untimed teardown (disconnect, then `POST …:release` answered). */
type Timings = Record<CapacityPhase | 'teardown', number>;
interface Quantiles {
  p50: number;
  p95: number;
}

const WARM_UP = 2;
const HOST_GIB = 24;
/** A warm hit's create is one HTTP request (a few ms); a launch under confinement takes tens of ms more. */
const HIT_CUTOFF_MIN_MS = 20;
const HIT_CUTOFF_TIMES_WARM_P50 = 3;

export interface CapacityOptions {
  /** Timed runs per side (floor, warm, back-to-back), after WARM_UP untimed ones. */
  runs: number;
  /** Runs per block; the blocks of the three sides alternate, their order turning each round. */
  block: number;
  /** LOCAL_WARM_BROWSERS of the timing server. */
  warmBrowsers: number;
  /** Untimed pause before each warm run, for the pool to refill. */
  pauseMs: number;
  /** LOCAL_MAX_SESSIONS of both servers, and the idle sessions of the memory figure. */
  maxSessions: number;
  /** How long the idle sessions sit before their memory is read. */
  settleMs: number;
  /** What a 24 GiB host keeps for the OS and the service, MiB. */
  reserveMiB: number;
  /** A back-to-back create at most this long met a ready warm browser; undefined: derived (see below). */
  hitMs: number | undefined;
  log: (line: string) => void;
}

export interface CapacityFigures {
  /** `confirmed`: both servers' logs named this binary as theirs. */
  chromium: { path: string; source: string; version: string; confirmed: boolean };
  sides: Record<CapacitySide, Record<CapacityPhase | 'teardown', Quantiles>>;
  ratio: { warm: number; backToBack: number };
  hits: { cutoffMs: number; hits: number; runs: number; creates: number[] };
  memory: {
    sessions: number;
    processes: ProcessMemory[];
    pssPerSession: number;
    ussPerSession: number;
    serverBefore: number;
    serverAfter: number;
    capacity: number;
  };
  loads: { start: number; afterTiming: number; end: number };
  isolation: string;
}

export interface CapacityResult {
  figures: CapacityFigures;
  markdown: string;
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/**
 * The flags the product starts every browser with (`chromiumArgs`), with a DevTools port on loopback
 * instead of the pipe and without the egress proxy (about:blank makes no request). As root Chromium
 * refuses its sandbox; the product runs it as an unprivileged user with the sandbox on.
 */
function floorArgs(profileDir: string): string[] {
  const args = chromiumArgs(profileDir, { sandbox: process.getuid?.() !== 0, proxyUrl: null });
  return args.flatMap((arg) =>
    arg === '--remote-debugging-pipe'
      ? ['--remote-debugging-address=127.0.0.1', '--remote-debugging-port=0']
      : [arg],
  );
}

/** The floor's browser: launched once, in its own process group, its port read from DevToolsActivePort. */
async function launchFloorBrowser(path: string): Promise<{ endpoint: string; close(): Promise<void> }> {
  const profileDir = mkdtempSync(join(tmpdir(), 'browserdeck-bench-floor-'));
  const child = spawn(path, floorArgs(profileDir), { detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr = (stderr + c).slice(-4000)));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
      process.kill(-child.pid, 'SIGTERM');
      const timer = setTimeout(() => child.pid !== undefined && process.kill(-child.pid, 'SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(profileDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 30_000;
  for (;;) {
    let lines: string[] = [];
    try {
      lines = readFileSync(join(profileDir, 'DevToolsActivePort'), 'utf8').split('\n');
    } catch {}
    const port = Number(lines[0]);
    if (lines.length >= 2 && port > 0) return { endpoint: `http://127.0.0.1:${port}`, close };
    if (child.exitCode !== null || Date.now() > deadline) {
      await close();
      throw new Error(`the floor's Chromium did not open its DevTools port:\n${stderr}`);
    }
    await sleep(25);
  }
}

/** connectOverCDP → first page → evaluate('1 + 1'), timed from `t0` (the create's start, or the connect's). */
export async function connectAndEvaluate(endpoint: string, t0: number, t1: number): Promise<Timings> {
  const browser = await chromium.connectOverCDP(endpoint);
  try {
    const t2 = performance.now();
    const context = browser.contexts()[0];
    if (!context) throw new Error('connectOverCDP found no browser context');
    const page = context.pages()[0] ?? (await context.newPage());
    const value = await page.evaluate('1 + 1');
    const t3 = performance.now();
    if (value !== 2) throw new Error(`page.evaluate('1 + 1') answered ${String(value)}`);
    // teardown: the caller adds the release, counting from t3 (performance.now() - teardown).
    return { create: t1 - t0, connect: t2 - t1, evaluate: t3 - t2, total: t3 - t0, teardown: t3 };
  } finally {
    // Over CDP this only closes the connection: the browser (and a keepAlive session) stays.
    await browser.close().catch(() => {});
  }
}

/** The Chromium the server runs, as its log names it (null when the log does not say). */
const serverChromium = (server: ServerProcess) => /"chromium":"([^"]+)"/.exec(server.output())?.[1] ?? null;

const quantiles = (values: number[]): Quantiles => ({ p50: median(values), p95: percentile(values, 95) });

export async function runCapacity(options: CapacityOptions): Promise<CapacityResult> {
  const { runs, block, warmBrowsers, pauseMs, maxSessions, settleMs, reserveMiB, log } = options;
  const started = new Date();
  const loadStart = loadavg()[0]!;
  const found = await findChromium();
  if (!found) throw new Error('no Chromium found (findChromium)');
  const version = (await promisify(execFile)(found.path, ['--version'])).stdout.trim();
  log(`  [capacity] Chromium: ${found.path} (${found.source}), ${version}`);
  const serverEnv = (warm: number) => ({
    DATA_DIR: mkdtempSync(join(tmpdir(), 'browserdeck-bench-capacity-')),
    LOCAL_WARM_BROWSERS: String(warm),
    LOCAL_MAX_SESSIONS: String(maxSessions),
    ...(process.env.CHROMIUM_PATH ? { CHROMIUM_PATH: process.env.CHROMIUM_PATH } : {}),
  });
  let confirmed = true;
  const checkBinary = (server: ServerProcess) => {
    const path = serverChromium(server);
    if (path !== null && path !== found.path)
      throw new Error(`the server runs ${path}, the floor ${found.path}: not the same binary`);
    if (path === null) confirmed = false;
  };

  // ---- timing: floor, warm and back-to-back in interleaved blocks ----------------------------
  const times: Record<CapacitySide, Timings[]> = { floor: [], warm: [], backToBack: [] };
  let isolation = 'unknown';
  const floor = await launchFloorBrowser(found.path);
  const timingEnv = serverEnv(warmBrowsers);
  let server: ServerProcess | undefined;
  try {
    server = await startServerProcess(timingEnv);
    const api = await localSessionApi(server.url);
    const viaServer = async (): Promise<Timings> => {
      const t0 = performance.now();
      const session = await api.create();
      const t1 = performance.now();
      let t: Timings | undefined;
      try {
        t = await connectAndEvaluate(session.connectUrl, t0, t1);
      } finally {
        await api.release(session.id);
      }
      return { ...t, teardown: performance.now() - t.teardown };
    };
    const flows: Record<CapacitySide, () => Promise<Timings>> = {
      floor: async () => {
        const t0 = performance.now();
        const t = await connectAndEvaluate(floor.endpoint, t0, t0);
        return { ...t, teardown: performance.now() - t.teardown };
      },
      warm: async () => {
        await sleep(pauseMs);
        return viaServer();
      },
      backToBack: viaServer,
    };
    const runBlock = async (side: CapacitySide, count: number, timed: boolean) => {
      // A back-to-back block starts with an untimed lead-in, so that every timed run follows another
      // back-to-back run and not a pause (which would hand it a refilled pool).
      if (side === 'backToBack') await flows.backToBack();
      const line: string[] = [];
      for (let i = 0; i < count; i++) {
        const t = await flows[side]();
        if (timed) times[side].push(t);
        line.push(fmt(t.total, 1));
      }
      log(`  [capacity] ${side}${timed ? '' : ' (warm-up)'} total ms: ${line.join(' ')}`);
    };
    for (const side of SIDES) await runBlock(side, WARM_UP, false);
    for (let round = 0; SIDES.some((s) => times[s].length < runs); round++) {
      const order = SIDES.map((_, i) => SIDES[(i + round) % SIDES.length]!);
      for (const side of order) await runBlock(side, Math.min(block, runs - times[side].length), true);
    }
    checkBinary(server);
    isolation = /"isolation":"([a-z]+)"/.exec(server.output())?.[1] ?? isolation;
  } finally {
    await server?.stop();
    await floor.close();
    rmSync(timingEnv.DATA_DIR, { recursive: true, force: true });
  }
  const loadAfterTiming = loadavg()[0]!;

  // ---- memory: N idle sessions on a fresh server without warm browsers -------------------------
  const memoryEnv = serverEnv(0);
  let memory: CapacityFigures['memory'];
  server = undefined;
  try {
    server = await startServerProcess(memoryEnv);
    const pid = server.child.pid;
    if (pid === undefined) throw new Error('the server has no pid');
    await sleep(settleMs);
    const serverBefore = pssOf(pid)?.pss ?? Number.NaN;
    const leftover = await descendantMemory(pid);
    if (leftover.length)
      log(`  [capacity] before the sessions the server has ${leftover.length} descendants`);
    // One account per session: an account may hold only half of LOCAL_MAX_SESSIONS by default.
    const idle: Array<{ id: string; api: Awaited<ReturnType<typeof localSessionApi>> }> = [];
    for (let i = 0; i < maxSessions; i++) {
      const api = await localSessionApi(server.url);
      const session = await api.create();
      const t0 = performance.now();
      await connectAndEvaluate(session.connectUrl, t0, t0);
      idle.push({ id: session.id, api });
    }
    await sleep(settleMs);
    for (const s of idle) {
      const status = await s.api.status(s.id);
      if (status !== 'RUNNING') throw new Error(`idle session ${s.id} is ${status} after its client left`);
    }
    checkBinary(server);
    // The median of three readings a second apart, per process kind summed over the processes.
    const readings: ProcessMemory[][] = [];
    const serverReadings: number[] = [];
    for (let i = 0; i < 3; i++) {
      if (i) await sleep(1000);
      readings.push(await descendantMemory(pid));
      serverReadings.push(pssOf(pid)?.pss ?? Number.NaN);
    }
    const totals = readings.map((r) => r.reduce((sum, p) => sum + p.pss, 0));
    const chosen = readings[totals.indexOf(median(totals))]!;
    const pss = chosen.reduce((sum, p) => sum + p.pss, 0);
    const uss = chosen.reduce((sum, p) => sum + p.uss, 0);
    const serverAfter = median(serverReadings);
    const perSession = pss / maxSessions + Math.max(0, serverAfter - serverBefore) / maxSessions;
    memory = {
      sessions: maxSessions,
      processes: chosen,
      pssPerSession: pss / maxSessions,
      ussPerSession: uss / maxSessions,
      serverBefore,
      serverAfter,
      capacity: Math.floor((HOST_GIB * 1024 - reserveMiB) / perSession),
    };
    log(
      `  [capacity] ${chosen.length} processes under the server for ${maxSessions} idle sessions: PSS ${fmt(pss, 1)} MiB, ${fmt(pss / maxSessions, 1)} MiB a session; server PSS ${fmt(serverBefore, 1)} → ${fmt(serverAfter, 1)} MiB`,
    );
    for (const s of idle) await s.api.release(s.id);
  } finally {
    await server?.stop();
    rmSync(memoryEnv.DATA_DIR, { recursive: true, force: true });
  }

  const sides = Object.fromEntries(
    SIDES.map((side) => [
      side,
      Object.fromEntries(
        [...PHASES, 'teardown' as const].map((phase) => [phase, quantiles(times[side].map((t) => t[phase]))]),
      ),
    ]),
  ) as CapacityFigures['sides'];
  const cutoffMs =
    options.hitMs ?? Math.max(HIT_CUTOFF_MIN_MS, HIT_CUTOFF_TIMES_WARM_P50 * sides.warm.create.p50);
  const creates = times.backToBack.map((t) => t.create);
  const figures: CapacityFigures = {
    chromium: { path: found.path, source: found.source, version, confirmed },
    sides,
    ratio: {
      warm: sides.warm.total.p50 / sides.floor.total.p50,
      backToBack: sides.backToBack.total.p50 / sides.floor.total.p50,
    },
    hits: { cutoffMs, hits: creates.filter((c) => c <= cutoffMs).length, runs: creates.length, creates },
    memory,
    loads: { start: loadStart, afterTiming: loadAfterTiming, end: loadavg()[0]! },
    isolation,
  };
  return { figures, markdown: capacityMarkdown(figures, options, started, times.backToBack) };
}

const verdict = (ok: boolean) => (ok ? '**PASS**' : '**MISS**');

const PHASE_LABELS: Record<CapacityPhase | 'teardown', string> = {
  create: 'create (`POST …/sessions` → connectUrl)',
  connect: '`chromium.connectOverCDP(…)`',
  evaluate: "first page + `page.evaluate('1 + 1')`",
  total: '**total: create → connected → first evaluate**',
  teardown: '(untimed, not in the total: disconnect, then `POST …:release` answered; floor: the disconnect)',
};

function capacityMarkdown(
  f: CapacityFigures,
  o: CapacityOptions,
  started: Date,
  backToBack: Timings[],
): string {
  const { sides, hits, memory: m, loads } = f;
  const playwrightVersion = (
    JSON.parse(
      readFileSync(resolve(import.meta.dirname, '../node_modules/playwright-core/package.json'), 'utf8'),
    ) as { version: string }
  ).version;
  const out = ['## 10. Capacity: floor, warm and back-to-back sessions, memory per idle session', ''];
  out.push(
    `Measured ${started.toISOString()} (bench/capacity.ts; BENCH_CAPACITY_RUNS=${o.runs} BENCH_CAPACITY_BLOCK=${o.block} BENCH_CAPACITY_WARM=${o.warmBrowsers} BENCH_CAPACITY_PAUSE_MS=${o.pauseMs} BENCH_CAPACITY_MAX_SESSIONS=${o.maxSessions} BENCH_CAPACITY_SETTLE_MS=${o.settleMs} BENCH_CAPACITY_RESERVE_MIB=${o.reserveMiB}${o.hitMs === undefined ? '' : ` BENCH_CAPACITY_HIT_MS=${o.hitMs}`}); ${cpus().length} CPUs, ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM, Node ${process.version}, playwright-core ${playwrightVersion}; Chromium \`${f.chromium.path}\` (found as the server finds it: ${f.chromium.source}; ${f.chromium.confirmed ? "the servers' logs name the same binary" : "a server's log did not name its binary"}), \`${f.chromium.version}\`. 1-min load average ${fmt(loads.start, 2)} at the start, ${fmt(loads.afterTiming, 2)} after the timed runs, ${fmt(loads.end, 2)} at the end.`,
    '',
  );
  out.push(
    `**Time to a usable page.** One playwright-core, one Chromium binary, three ways in. **Floor**: a Chromium the benchmark launched itself with the product's headless flags (DevTools on \`--remote-debugging-port=0\` at 127.0.0.1 instead of the pipe, no egress proxy, a temporary profile, ${process.getuid?.() === 0 ? 'as root, so `--no-sandbox --test-type`' : 'its own sandbox on'}, unconfined), already running; each run is a new \`chromium.connectOverCDP('http://127.0.0.1:<port>')\` (which first reads \`/json/version\`) and \`page.evaluate('1 + 1')\` in its first page, then a disconnect. **Warm**: the server started as \`npm start\` starts it (test/serverProcess.ts: SQLite, local identity, isolation \`${f.isolation}\`, LOCAL_MAX_SESSIONS=${o.maxSessions}, LOCAL_WARM_BROWSERS=${o.warmBrowsers}); \`POST /v1/local/projects/{id}/sessions\` with a sign-in token, \`connectOverCDP(connectUrl)\`, the same evaluate; then, untimed, \`POST …:release\` and the disconnect, and a ${o.pauseMs}-ms pause before the next run so the warm pool has refilled. **Back-to-back**: the same flow with no pause, each session released before the next is created; each back-to-back block starts with one untimed run, so every timed one follows another back-to-back run. ${o.runs} timed runs per side after ${WARM_UP} warm-ups, in blocks of ${o.block}, the three sides' blocks alternating and their order turning each round, so all three see the same machine load. Client-side wall time, milliseconds; p95 is the nearest rank.`,
    '',
  );
  const q = (side: CapacitySide, phase: CapacityPhase | 'teardown') =>
    side === 'floor' && phase === 'create'
      ? '–'
      : `${fmt(sides[side][phase].p50, 1)} / ${fmt(sides[side][phase].p95, 1)}`;
  out.push(
    table(
      ['phase (p50 / p95 ms)', 'floor: running Chromium', 'warm', 'back-to-back'],
      [...PHASES, 'teardown' as const].map((phase) => [
        PHASE_LABELS[phase],
        q('floor', phase),
        q('warm', phase),
        q('backToBack', phase),
      ]),
    ),
    '',
  );
  out.push(
    `Total p50 ÷ floor total p50: warm ${fmt(f.ratio.warm, 2)}×, back-to-back ${fmt(f.ratio.backToBack, 2)}×.`,
    '',
  );
  const b2b = sides.backToBack.total;
  out.push(
    table(
      ['target (issue 23)', 'measured', 'goal', 'verdict'],
      [
        [
          'back-to-back create → connected → first evaluate p50',
          `${fmt(b2b.p50, 1)} ms`,
          `≤ ${CAPACITY_TARGETS.backToBackP50Ms} ms`,
          verdict(b2b.p50 <= CAPACITY_TARGETS.backToBackP50Ms),
        ],
        [
          'back-to-back create → connected → first evaluate p95',
          `${fmt(b2b.p95, 1)} ms`,
          `≤ ${CAPACITY_TARGETS.backToBackP95Ms} ms`,
          verdict(b2b.p95 <= CAPACITY_TARGETS.backToBackP95Ms),
        ],
        [
          'warm total p50 ÷ floor total p50',
          `${fmt(f.ratio.warm, 2)}× (${fmt(sides.warm.total.p50, 1)} / ${fmt(sides.floor.total.p50, 1)} ms)`,
          `≤ ${CAPACITY_TARGETS.warmOverFloorP50}×`,
          verdict(f.ratio.warm <= CAPACITY_TARGETS.warmOverFloorP50),
        ],
      ],
    ),
    '',
  );
  const hit = backToBack.filter((t) => t.create <= hits.cutoffMs);
  const miss = backToBack.filter((t) => t.create > hits.cutoffMs);
  const p50 = (list: Timings[], phase: CapacityPhase) =>
    list.length ? fmt(median(list.map((t) => t[phase])), 1) : '–';
  out.push(
    `**Where the time goes, back-to-back.** A create that finds a warm browser ready is one HTTP request (the warm side's create p50 is ${fmt(sides.warm.create.p50, 1)} ms); one that does not waits for a launch under the confinement (its own, or the replacement the pool starts shortly after each create). A create counts as a warm hit when it took at most ${fmt(hits.cutoffMs, 1)} ms (${o.hitMs === undefined ? `${HIT_CUTOFF_TIMES_WARM_P50}× the warm side's create p50, at least ${HIT_CUTOFF_MIN_MS} ms` : 'BENCH_CAPACITY_HIT_MS'}). Between one back-to-back create and the next pass the run itself and its teardown (p50 ${fmt(sides.backToBack.total.p50, 1)} + ${fmt(sides.backToBack.teardown.p50, 1)} ms): that is the time the pool has to start the replacement and have it ready. Warm hits: **${hits.hits} of ${hits.runs}** (${fmt((100 * hits.hits) / Math.max(1, hits.runs), 0)} %). Back-to-back creates, sorted (ms): ${[
      ...hits.creates,
    ]
      .sort((a, b) => a - b)
      .map((c) => fmt(c, 1))
      .join(', ')}.`,
    '',
  );
  out.push(
    table(
      ['back-to-back, p50 ms', 'runs', 'create', 'connect', 'evaluate', 'total'],
      [
        [
          'warm hit',
          String(hit.length),
          p50(hit, 'create'),
          p50(hit, 'connect'),
          p50(hit, 'evaluate'),
          p50(hit, 'total'),
        ],
        [
          'miss',
          String(miss.length),
          p50(miss, 'create'),
          p50(miss, 'connect'),
          p50(miss, 'evaluate'),
          p50(miss, 'total'),
        ],
      ],
    ),
    '',
  );
  const kinds = new Map<string, { count: number; pss: number; uss: number }>();
  for (const p of m.processes) {
    const k = kinds.get(p.kind) ?? { count: 0, pss: 0, uss: 0 };
    kinds.set(p.kind, { count: k.count + 1, pss: k.pss + p.pss, uss: k.uss + p.uss });
  }
  const pssTotal = m.pssPerSession * m.sessions;
  out.push(
    `**Memory per idle session.** A fresh server (LOCAL_WARM_BROWSERS=0, LOCAL_MAX_SESSIONS=${m.sessions}) with ${m.sessions} idle sessions, one account each (an account holds at most half of LOCAL_MAX_SESSIONS by default): each created over HTTP, connected once with \`connectOverCDP\`, its one about:blank page evaluated, then disconnected; they are keepAlive, and each is checked to be still RUNNING ${o.settleMs} ms later. Then the PSS (\`Pss:\` of \`/proc/<pid>/smaps_rollup\`) of every descendant of the server process (found through the ppid of \`/proc/*/stat\`: the confinement's wrappers, the browsers, their zygotes, renderers and utility processes), the median total of three readings a second apart. PSS shares each shared page among the processes that map it, so the sum is what these processes take together; "private" (Private_Clean + Private_Dirty) is what would be freed if they ended.`,
    '',
  );
  out.push(
    table(
      ['process kind', 'processes', 'PSS MiB', 'PSS MiB per session', 'private MiB'],
      [
        ...[...kinds.entries()]
          .sort((a, b) => b[1].pss - a[1].pss)
          .map(([kind, k]) => [
            `\`${kind}\``,
            String(k.count),
            fmt(k.pss, 1),
            fmt(k.pss / m.sessions, 1),
            fmt(k.uss, 1),
          ]),
        [
          '**all descendants**',
          String(m.processes.length),
          fmt(pssTotal, 1),
          `**${fmt(m.pssPerSession, 1)}**`,
          fmt(m.ussPerSession * m.sessions, 1),
        ],
      ],
    ),
    '',
  );
  const growth = m.serverAfter - m.serverBefore;
  out.push(
    `The server process itself: PSS ${fmt(m.serverBefore, 1)} MiB before the sessions, ${fmt(m.serverAfter, 1)} MiB with them (${growth >= 0 ? '+' : ''}${fmt(growth, 1)} MiB, ${fmt(growth / m.sessions, 1)} MiB a session). **By memory, a ${HOST_GIB} GiB host holds about ${m.capacity} idle sessions**: (${HOST_GIB} GiB − ${fmt(o.reserveMiB / 1024, 1)} GiB kept for the OS and the service) ÷ (${fmt(m.pssPerSession, 1)} MiB of browser processes + ${fmt(Math.max(0, growth) / m.sessions, 1)} MiB of server growth per session). The reserve assumes 2 GiB for the OS and its page cache and 2 GiB for the service (its PSS here is ${fmt(m.serverAfter, 0)} MiB; the rest is room for its database, logs and bursts); BENCH_CAPACITY_RESERVE_MIB changes it. This is a lower bound on a session's cost: an about:blank page, no navigation; a real site's renderer takes tens to hundreds of MiB more (LOCAL_BROWSER_MEMORY_MB caps a browser), and PSS per session falls a little as more browsers share the binary's pages. CPU (${cpus().length} cores here) and LOCAL_MAX_SESSIONS bound the count before memory does.`,
    '',
  );
  return out.join('\n');
}
