/**
 * Scenario `bbsdk`: code written for Browserbase against Browserdeck's local provider (real
 * Chromium). The official `@browserbasehq/sdk` creates a session with a project API key
 * (`POST /v1/sessions`, http-api.md §13), `playwright-core` connects over CDP to its connectUrl and
 * evaluates `1 + 1` in the first page; the same flow through Browserdeck's own API
 * (`POST /v1/local/projects/{id}/sessions` with a sign-in token) runs alternately beside it. The
 * server is `examples/server` started as `npm start` starts it (test/serverProcess.ts), with
 * LOCAL_WARM_BROWSERS warm browsers; between runs it gets a pause to refill its warm pool.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import Browserbase from '@browserbasehq/sdk';
import { chromium } from 'playwright-core';
import { startServerProcess } from '../test/serverProcess.ts';
import { call, newUser } from './api.ts';
import { fmt, median, percentile, table } from './stats.ts';

/** The two ways the flow creates its session. */
export type FlowSide = 'sdk' | 'native';
export const FLOW_SIDES: readonly FlowSide[] = ['sdk', 'native'];

/** The timed phases of one run, in milliseconds. */
export type FlowPhase = 'create' | 'connect' | 'evaluate' | 'total';
export const FLOW_PHASES: readonly FlowPhase[] = ['create', 'connect', 'evaluate', 'total'];

const WARM_UP = 2;

export interface BrowserbaseSdkFlowOptions {
  /** Timed runs per side, after WARM_UP untimed ones. */
  runs: number;
  /** LOCAL_WARM_BROWSERS of the server. */
  warmBrowsers: number;
  /** Untimed pause after each run, for the warm pool to refill. */
  pauseMs: number;
  log: (line: string) => void;
}

type Timings = Record<FlowPhase, number>;

export interface BrowserbaseSdkFlowResult {
  /** p50 and p95 per side and phase. */
  figures: Record<FlowSide, Record<FlowPhase, { p50: number; p95: number }>>;
  markdown: string;
}

/** The session a flow drives: its id and CDP URL, and how to release it. */
interface Created {
  connectUrl: string;
  release(): Promise<unknown>;
}

/** Times create → connectOverCDP → first evaluate; releases (untimed) and disconnects. */
async function timeFlow(create: () => Promise<Created>): Promise<Timings> {
  const t0 = performance.now();
  const session = await create();
  const t1 = performance.now();
  const browser = await chromium.connectOverCDP(session.connectUrl);
  try {
    const t2 = performance.now();
    const context = browser.contexts()[0];
    if (!context) throw new Error('connectOverCDP found no browser context');
    const page = context.pages()[0] ?? (await context.newPage());
    const value = await page.evaluate(() => 1 + 1);
    const t3 = performance.now();
    if (value !== 2) throw new Error(`page.evaluate(() => 1 + 1) answered ${value}`);
    return { create: t1 - t0, connect: t2 - t1, evaluate: t3 - t2, total: t3 - t0 };
  } finally {
    await session.release();
    await browser.close().catch(() => {});
  }
}

export async function runBrowserbaseSdkFlow(
  options: BrowserbaseSdkFlowOptions,
): Promise<BrowserbaseSdkFlowResult> {
  const { runs, warmBrowsers, pauseMs, log } = options;
  const started = new Date();
  const loadBefore = loadavg()[0]!;
  const dataDir = mkdtempSync(join(tmpdir(), 'browserdeck-bench-bbsdk-'));
  const times: Record<FlowSide, Timings[]> = { sdk: [], native: [] };
  let isolation = 'unknown';
  const server = await startServerProcess({
    DATA_DIR: dataDir,
    LOCAL_WARM_BROWSERS: String(warmBrowsers),
  });
  try {
    const token = await newUser(server.url);
    const project = await call<{ id: string }>(server.url, 'POST', '/v1/projects', {
      token,
      body: { name: 'SDK bench' },
      expect: 201,
    });
    const { key } = await call<{ key: string }>(server.url, 'POST', `/v1/projects/${project.id}/api-keys`, {
      token,
      body: { name: 'bench' },
      expect: 201,
    });
    const bb = new Browserbase({ apiKey: key, baseURL: server.url, maxRetries: 0 });
    const sessionsPath = `/v1/local/projects/${project.id}/sessions`;
    const flows: Record<FlowSide, () => Promise<Created>> = {
      sdk: async () => {
        const session = await bb.sessions.create({ projectId: project.id, keepAlive: true });
        return {
          connectUrl: session.connectUrl,
          release: () => bb.sessions.update(session.id, { status: 'REQUEST_RELEASE' }),
        };
      },
      native: async () => {
        const session = await call<{ id: string; connectUrl: string }>(server.url, 'POST', sessionsPath, {
          token,
          body: {},
          expect: 201,
        });
        return {
          connectUrl: session.connectUrl,
          release: () =>
            call(server.url, 'POST', `${sessionsPath}/${session.id}:release`, { token, body: {} }),
        };
      },
    };
    for (let i = 0; i < WARM_UP + runs; i++) {
      // The order turns with each run, so neither side always meets the pool right after the other.
      const order = i % 2 === 0 ? FLOW_SIDES : [...FLOW_SIDES].reverse();
      const line: string[] = [];
      for (const side of order) {
        await new Promise((resolve) => setTimeout(resolve, pauseMs));
        const t = await timeFlow(flows[side]);
        if (i >= WARM_UP) times[side].push(t);
        line.push(
          `${side} ${FLOW_PHASES.map((p) => `${p} ${fmt(t[p], 1)}`).join(' / ')} ms${i < WARM_UP ? ' (warm-up)' : ''}`,
        );
      }
      log(`  [bbsdk] run ${i + 1}: ${line.join('; ')}`);
    }
    isolation = /"isolation":"([a-z]+)"/.exec(server.output())?.[1] ?? isolation;
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  const figures = Object.fromEntries(
    FLOW_SIDES.map((side) => [
      side,
      Object.fromEntries(
        FLOW_PHASES.map((phase) => {
          const values = times[side].map((t) => t[phase]);
          return [phase, { p50: median(values), p95: percentile(values, 95) }];
        }),
      ),
    ]),
  ) as BrowserbaseSdkFlowResult['figures'];
  const markdown = flowMarkdown({ figures, options, started, isolation, loads: [loadBefore, loadavg()[0]!] });
  return { figures, markdown };
}

const PHASE_LABELS: Record<FlowPhase, string> = {
  create: 'create (HTTP → session with connectUrl)',
  connect: '`chromium.connectOverCDP(connectUrl)`',
  evaluate: 'first page + `page.evaluate(() => 1 + 1)`',
  total: '**total: create → connected → first evaluate**',
};

function flowMarkdown(input: {
  figures: BrowserbaseSdkFlowResult['figures'];
  options: BrowserbaseSdkFlowOptions;
  started: Date;
  isolation: string;
  loads: [number, number];
}): string {
  const { figures, options, started, isolation, loads } = input;
  const out = ['## 7. Browserbase SDK: create → connected → first evaluate (local provider)', ''];
  out.push(
    `Measured ${started.toISOString()} (bench/browserbaseSdkFlow.ts; BENCH_BBSDK_RUNS=${options.runs} BENCH_BBSDK_WARM=${options.warmBrowsers} BENCH_BBSDK_PAUSE_MS=${options.pauseMs}); ${cpus().length} CPUs, ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM, Node ${process.version}; 1-min load ${fmt(loads[0], 2)} before, ${fmt(loads[1], 2)} after.`,
    '',
  );
  out.push(
    `The server is \`examples/server\` started as \`npm start\` starts it (test/serverProcess.ts: SQLite, local identity, local Chromium at the default isolation, here \`${isolation}\`, LOCAL_WARM_BROWSERS=${options.warmBrowsers}). "SDK" is \`@browserbasehq/sdk\` with a project API key, \`new Browserbase({ apiKey, baseURL, maxRetries: 0 })\` and \`bb.sessions.create({ projectId, keepAlive: true })\` (\`POST /v1/sessions\`, http-api.md §13); "native" is \`POST /v1/local/projects/{id}/sessions\` with a sign-in token (http-api.md §5). Both then run \`playwright-core\`'s \`chromium.connectOverCDP(session.connectUrl)\` and \`page.evaluate(() => 1 + 1)\` in the first page (\`contexts()[0].pages()[0]\`, else a new page). ${options.runs} timed runs per side after ${WARM_UP} warm-ups, the sides alternating and their order turning each run; each run is followed by an untimed release (\`bb.sessions.update(id, { status: 'REQUEST_RELEASE' })\` / \`POST …:release\`) and \`browser.close()\`, and preceded by a ${options.pauseMs}-ms pause so the warm pool has refilled. Client-side wall time, milliseconds.`,
    '',
  );
  out.push(
    table(
      ['phase', 'SDK p50', 'SDK p95', 'native p50', 'native p95', 'SDK ÷ native (p50)'],
      FLOW_PHASES.map((phase) => [
        PHASE_LABELS[phase],
        fmt(figures.sdk[phase].p50, 1),
        fmt(figures.sdk[phase].p95, 1),
        fmt(figures.native[phase].p50, 1),
        fmt(figures.native[phase].p95, 1),
        fmt(figures.sdk[phase].p50 / figures.native[phase].p50, 2),
      ]),
    ),
    '',
  );
  out.push(
    `With ${options.runs} runs, p95 is the nearest rank: the slowest or next-slowest run. Where the time goes: create is one HTTP request that authenticates, takes the warm browser and stores the session row (both sides run the same \`CreateSession\`; the SDK side adds its request and response mapping). Connect is Playwright's CDP handshake through the connect endpoint (WebSocket upgrade with the signing key, \`Browser.getVersion\`, auto-attach to the existing page and its frames), several round trips, where section 3's raw-CDP client sends three messages in all, evaluate included. The first evaluate includes Playwright creating its execution context in the page. The two sides differ only in the create request, so their ratio should stay near 1; a p95 far above the p50 is a run that met a cold browser or a busy machine.`,
    '',
  );
  return out.join('\n');
}
