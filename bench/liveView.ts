/**
 * Scenario `liveview`: what watching a session costs (http-api.md §14). The server side
 * (bench/liveViewServer.ts: the local provider and a `ScreencastHub`) runs in its own process, as in
 * a Browserdeck server; this process is the driving client (raw CDP over the session's connectUrl,
 * attached to its page) and the viewer (a `ws` client of the hub, as the live-view page is).
 *
 * (a) Frame latency: the driving client changes the page (`Runtime.evaluate` sets the background to
 * the other of two colours and writes a counter); the time from just before that command is sent to
 * the arrival, on the viewer's socket, of the first frame after it. The page paints nothing else, so
 * that frame is the change's; every one is decoded afterwards (in a browser of the benchmark's own)
 * to check it shows the new colour. Between changes the page stays still for a moment.
 * (b) The driving client's `Runtime.evaluate` round trip, one command in flight, without and with one
 * viewer watching its tab: blocks of evaluations alternate between the sides (the order turning each
 * round), after one untimed block per side. Two expressions: `1 + 1` (the page stays still, so the
 * screencast has nothing to send) and one that rewrites a counter in the page (every evaluation makes
 * a frame while watched). The CPU time of the server process and the browser's processes is read
 * from /proc around each block.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { findChromium } from '@browserdeck/adapters/local-chromium';
import { frameDecoder, LiveViewerClient, near, type Rgb } from '@browserdeck/testing/live-view';
import { chromium } from 'playwright-core';
import { DEFAULT_MIN_FRAME_INTERVAL_MS } from '../packages/adapters/src/browsers/live-view/TabScreencast.ts';
import { freePort } from '../test/freePort.ts';
import { startChild } from './childProcess.ts';
import { fmt, median, percentile, table } from './stats.ts';

/** The goal for the driving client's overhead with a viewer (issue 17). */
export const LIVE_VIEW_OVERHEAD_TARGET = 0.05;

export interface LiveViewBenchOptions {
  /** Page changes timed for the frame latency, after WARM_UP_CHANGES untimed. */
  changes: number;
  /** Timed evaluations per side and expression. */
  evaluations: number;
  /** Evaluations per block. */
  blockSize: number;
  log: (line: string) => void;
}

/** p50 and p95 of a list of milliseconds. */
interface Spread {
  p50: number;
  p95: number;
}

/** One expression's evaluate round trips, without and with a viewer. */
interface OverheadFigures {
  none: Spread;
  viewer: Spread;
  /** viewer ÷ none − 1 at p50 and at p95. */
  overheadP50: number;
  overheadP95: number;
  /** CPU ms a second of the server process and the browser's processes (median over blocks). */
  cpuPerSecond: { none: number; viewer: number };
  /** Frames the viewer received a second. */
  framesPerSecond: number;
}

export interface LiveViewBenchResult {
  figures: {
    latency: Spread & { verified: number; samples: number; jpegBytes: number; evaluate: Spread };
    still: OverheadFigures;
    changing: OverheadFigures;
  };
  markdown: string;
}

const WARM_UP_CHANGES = 5;
/** How long the page stays still before each timed change. */
const QUIET_MS = 150;
const COLORS: readonly Rgb[] = [
  [220, 40, 40],
  [40, 60, 220],
];
const PAGE = `data:text/html,<title>bench</title><body style="margin:0;background:rgb(${COLORS[1]!.join(',')})">
<div id="n" style="font:bold 160px sans-serif;color:white;padding:40px">0</div></body>`;

const pause = (ms: number) => new Promise((done) => setTimeout(done, ms));
const spread = (values: number[]): Spread => ({ p50: median(values), p95: percentile(values, 95) });

/** A raw CDP client over a session's connectUrl, attached (flat) to its first page. */
class Driver {
  private readonly ws: WebSocket;
  private readonly waiting = new Map<
    number,
    (message: { result?: Record<string, unknown>; error?: { message: string } }) => void
  >();
  private nextId = 1;
  sessionId = '';

  private constructor(ws: WebSocket) {
    this.ws = ws;
    ws.addEventListener('message', (event) => {
      const message = JSON.parse(String(event.data)) as {
        id?: number;
        result?: Record<string, unknown>;
        error?: { message: string };
      };
      if (message.id !== undefined) this.waiting.get(message.id)?.(message);
    });
  }

  static async connect(connectUrl: string): Promise<Driver> {
    const ws = new WebSocket(connectUrl);
    await new Promise((done, fail) => {
      ws.addEventListener('open', done);
      ws.addEventListener('error', fail);
    });
    const driver = new Driver(ws);
    const { targetInfos } = (await driver.send('Target.getTargets')) as {
      targetInfos: Array<{ targetId: string; type: string }>;
    };
    const page = targetInfos.find((t) => t.type === 'page');
    if (!page) throw new Error('the session has no page');
    const { sessionId } = (await driver.send('Target.attachToTarget', {
      targetId: page.targetId,
      flatten: true,
    })) as {
      sessionId: string;
    };
    driver.sessionId = sessionId;
    return driver;
  }

  send(
    method: string,
    params: Record<string, unknown> = {},
    sessionId?: string,
  ): Promise<Record<string, unknown>> {
    const id = this.nextId++;
    return new Promise((done, fail) => {
      this.waiting.set(id, (message) => {
        this.waiting.delete(id);
        if (message.error) fail(new Error(`${method}: ${message.error.message}`));
        else done(message.result ?? {});
      });
      this.ws.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
    });
  }

  /** Evaluates in the page; resolves with the round trip in milliseconds. */
  async evaluate(expression: string): Promise<number> {
    const start = performance.now();
    const answer = (await this.send('Runtime.evaluate', { expression }, this.sessionId)) as {
      exceptionDetails?: unknown;
    };
    const elapsed = performance.now() - start;
    if (answer.exceptionDetails) throw new Error(`Runtime.evaluate threw: ${expression}`);
    return elapsed;
  }

  close(): void {
    this.ws.close();
  }
}

/** The viewer process (bench/liveViewViewer.ts): `open` resolves once it has a frame, `close` with its frame count. */
function startViewerProcess(): { open(url: string): Promise<void>; close(): Promise<number>; stop(): void } {
  const child = spawn(
    process.execPath,
    ['--conditions=source', resolve(import.meta.dirname, 'liveViewViewer.ts')],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const lines: string[] = [];
  const waiters: Array<(line: string) => void> = [];
  createInterface({ input: child.stdout! }).on('line', (line) => {
    const waiter = waiters.shift();
    if (waiter) waiter(line);
    else lines.push(line);
  });
  const next = () =>
    new Promise<string>((done) => {
      const line = lines.shift();
      if (line !== undefined) done(line);
      else waiters.push(done);
    });
  return {
    async open(url) {
      child.stdin!.write(`open ${url}\n`);
      const line = await next();
      if (line !== 'ready') throw new Error(`the viewer process said ${line}`);
    },
    async close() {
      child.stdin!.write('close\n');
      return Number((await next()).split(' ')[1]);
    },
    stop: () => child.kill(),
  };
}

/** CPU seconds used so far by process `root` and all its descendants (/proc, Linux). */
function treeCpuSeconds(root: number): number {
  const parents = new Map<number, number>();
  const cpu = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parents.set(Number(entry), Number(fields[1]));
      cpu.set(Number(entry), (Number(fields[11]) + Number(fields[12])) / 100);
    } catch {
      // The process exited while we looked.
    }
  }
  let total = 0;
  for (const [pid, seconds] of cpu) {
    let at: number | undefined = pid;
    while (at !== undefined && at > 1 && at !== root) at = parents.get(at);
    if (at === root) total += seconds;
  }
  return total;
}

export async function runLiveViewBench(options: LiveViewBenchOptions): Promise<LiveViewBenchResult> {
  const { changes, evaluations, blockSize, log } = options;
  const started = new Date();
  const loadBefore = loadavg()[0]!;
  const chromiumPath = (await findChromium())?.path;
  if (!chromiumPath) throw new Error('the live-view benchmark needs a Chromium');
  const server = await startChild({
    script: resolve(import.meta.dirname, 'liveViewServer.ts'),
    env: process.env.LIVEVIEW_MIN_FRAME_INTERVAL_MS
      ? { LIVEVIEW_MIN_FRAME_INTERVAL_MS: process.env.LIVEVIEW_MIN_FRAME_INTERVAL_MS }
      : {},
    port: await freePort(),
    readyPath: '/healthz',
  });
  const serverPid = server.child.pid!;
  const decoderBrowser = await chromium.launch({ executablePath: chromiumPath });
  let driver: Driver | null = null;
  let stopViewer = (): void => {};
  try {
    const session = (await (await fetch(`${server.url}/session`, { method: 'POST' })).json()) as {
      id: string;
      connectUrl: string;
    };
    driver = await Driver.connect(session.connectUrl);
    const drive = driver;
    await drive.send('Page.navigate', { url: PAGE }, drive.sessionId);
    for (let i = 0; i < 100; i++) {
      const ready = (await drive.send(
        'Runtime.evaluate',
        {
          expression: `document.readyState === 'complete' && !!document.getElementById('n')`,
          returnByValue: true,
        },
        drive.sessionId,
      )) as { result: { value: boolean } };
      if (ready.result.value) break;
      await pause(50);
    }
    const viewerUrl = `${server.url.replace(/^http/, 'ws')}/live/${session.id}`;

    // (a) Frame latency.
    const viewer = await LiveViewerClient.connect(viewerUrl);
    await viewer.nextFrame(0);
    const latencies: number[] = [];
    const evaluateTimes: number[] = [];
    const shown: Array<{ jpeg: Buffer; color: Rgb }> = [];
    for (let i = 0; i < WARM_UP_CHANGES + changes; i++) {
      await pause(QUIET_MS);
      const color = COLORS[i % 2]!;
      const before = viewer.frames.length;
      const sentAt = performance.now();
      const evaluated = await drive.evaluate(
        `document.body.style.background = 'rgb(${color.join(',')})'; document.getElementById('n').textContent = '${i}'; 0`,
      );
      const frame = await viewer.nextFrame(before, (f) => f.receivedAt >= sentAt);
      if (i < WARM_UP_CHANGES) continue;
      latencies.push(frame.receivedAt - sentAt);
      evaluateTimes.push(evaluated);
      shown.push({ jpeg: frame.jpeg, color });
    }
    await viewer.close();
    const decode = await frameDecoder(decoderBrowser);
    let verified = 0;
    for (const { jpeg, color } of shown) if (near(await decode(jpeg, 0.9, 0.9), color)) verified++;
    const latency = {
      ...spread(latencies),
      verified,
      samples: latencies.length,
      jpegBytes: median(shown.map((s) => s.jpeg.length)),
      evaluate: spread(evaluateTimes),
    };
    log(
      `  [liveview] frame latency p50 ${fmt(latency.p50, 1)} ms, p95 ${fmt(latency.p95, 1)} ms (${verified}/${latencies.length} frames show the change)`,
    );

    // (b) The driving client with and without a viewer (in its own process).
    const viewerProcess = startViewerProcess();
    stopViewer = viewerProcess.stop;
    const overhead = async (name: string, expression: (i: number) => string): Promise<OverheadFigures> => {
      const times = { none: [] as number[], viewer: [] as number[] };
      const cpu = { none: [] as number[], viewer: [] as number[] };
      let frames = 0;
      let watchedMs = 0;
      let counter = 0;
      const rounds = Math.ceil(evaluations / blockSize);
      for (let round = -1; round < rounds; round++) {
        const sides = round % 2 === 0 ? (['none', 'viewer'] as const) : (['viewer', 'none'] as const);
        for (const side of sides) {
          if (side === 'viewer') await viewerProcess.open(viewerUrl);
          await pause(100);
          const cpuBefore = treeCpuSeconds(serverPid);
          const blockStart = performance.now();
          const block: number[] = [];
          for (let i = 0; i < blockSize; i++) block.push(await drive.evaluate(expression(counter++)));
          const blockMs = performance.now() - blockStart;
          const cpuMs = (treeCpuSeconds(serverPid) - cpuBefore) * 1000;
          if (side === 'viewer') {
            const received = await viewerProcess.close();
            if (round >= 0) {
              frames += received;
              watchedMs += blockMs;
            }
            // The screencast stops once its last viewer has gone.
            await pause(200);
          }
          if (round < 0) continue;
          times[side].push(...block);
          cpu[side].push((cpuMs * 1000) / blockMs);
        }
      }
      const none = spread(times.none);
      const viewerSpread = spread(times.viewer);
      const figures: OverheadFigures = {
        none,
        viewer: viewerSpread,
        overheadP50: viewerSpread.p50 / none.p50 - 1,
        overheadP95: viewerSpread.p95 / none.p95 - 1,
        cpuPerSecond: { none: median(cpu.none), viewer: median(cpu.viewer) },
        framesPerSecond: (frames * 1000) / watchedMs,
      };
      log(
        `  [liveview] ${name}: evaluate p50 ${fmt(none.p50, 3)} → ${fmt(viewerSpread.p50, 3)} ms (${fmt(figures.overheadP50 * 100, 1)} %), p95 ${fmt(none.p95, 3)} → ${fmt(viewerSpread.p95, 3)} ms; ${fmt(figures.framesPerSecond, 0)} frames/s; CPU ${fmt(figures.cpuPerSecond.none, 0)} → ${fmt(figures.cpuPerSecond.viewer, 0)} ms/s`,
      );
      return figures;
    };
    const still = await overhead('1 + 1', () => '1 + 1');
    const changing = await overhead('counter', (i) => `document.getElementById('n').textContent = '${i}'; 0`);
    const figures = { latency, still, changing };
    return {
      figures,
      markdown: liveViewMarkdown({ figures, options, started, loads: [loadBefore, loadavg()[0]!] }),
    };
  } finally {
    driver?.close();
    stopViewer();
    await decoderBrowser.close();
    await server.stop();
  }
}

function liveViewMarkdown(input: {
  figures: LiveViewBenchResult['figures'];
  options: LiveViewBenchOptions;
  started: Date;
  loads: [number, number];
}): string {
  const { figures, options, started, loads } = input;
  const { latency, still, changing } = figures;
  const pct = (ratio: number) => `${ratio >= 0 ? '+' : ''}${fmt(ratio * 100, 1)} %`;
  const out = ['## 8. Live view', ''];
  out.push(
    `Measured ${started.toISOString()} (bench/liveView.ts; BENCH_LIVEVIEW_CHANGES=${options.changes} BENCH_LIVEVIEW_EVALUATIONS=${options.evaluations} BENCH_LIVEVIEW_BLOCK=${options.blockSize}); ${cpus().length} CPUs, ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM, Node ${process.version}; 1-min load ${fmt(loads[0], 2)} before, ${fmt(loads[1], 2)} after.`,
    '',
  );
  out.push(
    `The server side (bench/liveViewServer.ts) runs in its own process: the local provider at its default isolation and the \`ScreencastHub\` over its \`cdp\` capability, one 1280×720 session. The benchmark process is the driving client (raw CDP over the session's connectUrl, attached to its page, one command in flight); the viewer is a \`ws\` client of the hub, as the live-view page is: in the benchmark process for the latency (one clock), in a third process (bench/liveViewViewer.ts) for the driving client's overhead, so that receiving frames does not run on the driver's event loop. Screencast: JPEG quality 70, at most 1920 px a side, acks paced to at most one every ${DEFAULT_MIN_FRAME_INTERVAL_MS} ms (20 frames a second).`,
    '',
  );
  out.push(
    `**Frame latency**: the driving client sets the page's background to the other of two colours and rewrites a 160-px counter (\`Runtime.evaluate\`), after ${QUIET_MS} ms of a still page; measured from just before the command is sent to the arrival on the viewer's socket of the first frame after it (the page paints nothing else, so it is the change's frame). Every timed frame was decoded afterwards in a browser of the benchmark's own: ${latency.verified} of ${latency.samples} show the new colour. ${latency.samples} changes after ${WARM_UP_CHANGES} untimed. Drawing the frame in the viewer's page (decoding a ${fmt(latency.jpegBytes / 1024, 0)} KB JPEG, median) comes on top.`,
    '',
  );
  out.push(
    table(
      ['measurement', 'p50 ms', 'p95 ms'],
      [
        ["change → frame on the viewer's socket", fmt(latency.p50, 1), fmt(latency.p95, 1)],
        [
          "(the change's `Runtime.evaluate` round trip)",
          fmt(latency.evaluate.p50, 2),
          fmt(latency.evaluate.p95, 2),
        ],
      ],
    ),
    '',
  );
  out.push(
    `**The driving client with a viewer**: \`Runtime.evaluate\` round trips, ${options.evaluations} timed per side and expression in blocks of ${options.blockSize}, the sides alternating and their order turning each round, one untimed block per side first. With a viewer, it connects before its block (and has its first frame) and leaves after it. "Still" evaluates \`1 + 1\` (nothing repaints, so the screencast sends nothing); "counter" rewrites the page's counter each time, so every evaluation makes a frame the hub encodes, sends and acknowledges while the driver waits for its next answer. CPU is the user + system time (/proc) of the server process and the browser's processes per second of a block, median over blocks; frames/s is what the viewer received over its blocks (a little above the paced 20 when blocks are short: each starts with the three frames Chrome sends before it waits for an ack).`,
    '',
  );
  const row = (name: string, f: OverheadFigures) => [
    name,
    `${fmt(f.none.p50, 3)} / ${fmt(f.none.p95, 3)}`,
    `${fmt(f.viewer.p50, 3)} / ${fmt(f.viewer.p95, 3)}`,
    `${pct(f.overheadP50)} / ${pct(f.overheadP95)}`,
    `${fmt(f.cpuPerSecond.none, 0)} → ${fmt(f.cpuPerSecond.viewer, 0)}`,
    fmt(f.framesPerSecond, 0),
  ];
  out.push(
    table(
      [
        'expression',
        'no viewer p50 / p95 ms',
        'one viewer p50 / p95 ms',
        'overhead p50 / p95',
        'server + browser CPU ms/s',
        'frames/s to the viewer',
      ],
      [row('still: `1 + 1`', still), row('counter: rewrites the page', changing)],
    ),
    '',
  );
  const worst = Math.max(still.overheadP50, changing.overheadP50);
  out.push(
    `Target: the driving client's p50 at most ${LIVE_VIEW_OVERHEAD_TARGET * 100} % slower with a viewer: ${worst <= LIVE_VIEW_OVERHEAD_TARGET ? '**pass**' : '**MISS**'} (worst of the two expressions: ${pct(worst)}).`,
    '',
  );
  out.push(
    "Where a viewer's cost goes: nothing while the page is still (no frames). While it changes, Chrome captures the tab's surface on every composited frame in its GPU process (about a quarter of a core here for an animating 1280×720 page, whatever the frame rate or size asked for), then encodes a JPEG only for frames it may send (fewer than three unacknowledged): pacing the acks to 20 a second halves the encoding against every frame at 60, and the server's share (one JSON parse in the router, one base64 decode into the frame all viewers are sent, the WebSocket writes) is a few per cent of a core. The driving client waits for none of it; it competes for the same cores, which shows in its p95 more than its p50 on a 2-core machine.",
    '',
  );
  return out.join('\n');
}
