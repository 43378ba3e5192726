/**
 * Scenario `recording` (SPEC §18, issue 39): what recording a session costs, side by side with
 * recording off, in one run. One server started as `npm start` starts it (SQLite in a temporary
 * DATA_DIR, the local provider, LOCAL_WARM_BROWSERS at its default), a loopback site
 * (bench/recordingSite.ts) as its only allowed destination, and sessions created recorded (the
 * default) or not (`record: false`), so the sides differ by the recording alone.
 *
 * Each round runs three kinds of session on each side, the sides' order turning by round and kind:
 * `loads` (create → connectOverCDP → first evaluate, then page loads of the static page), `static`
 * and `animated` (the same start, then the page shown for a fixed window whose CPU time is read from
 * /proc: the server process, and the session's browser process tree). A recorded session's replay is
 * then polled every 50 ms from its release until READY, before the next session starts, so no video is
 * made during another session's measurement. Before each create the bench waits until the warm pool's
 * browser is up, so every create can meet a ready warm browser.
 */
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { chromium } from 'playwright-core';
import { isRunning } from '../test/processTree.ts';
import { call, createProjects, newUser, startApiServer } from './api.ts';
import { chromiumBrowsersBelow, cpuSecondsOf, hasRenderer, treeCpuSeconds } from './processCpu.ts';
import { type RecordingFigures, recordingFigures } from './recordingFigures.ts';
import { recordingMarkdown } from './recordingMarkdown.ts';
import {
  RECORDING_KINDS,
  type RecordingBenchOptions,
  type RecordingKind,
  type RecordingSide,
  type SessionSample,
} from './recordingSample.ts';
import { startRecordingSite } from './recordingSite.ts';
import { fmt } from './stats.ts';

export interface RecordingBenchResult {
  figures: RecordingFigures;
  markdown: string;
}

interface Replay {
  status: string;
  bytes: number;
  error: string | null;
  pages: Array<{
    frames: number;
    bytes: number;
    startTimeMs: number;
    endTimeMs: number | null;
    width: number;
    height: number;
    mp4Url: string | null;
  }>;
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
const REPLAY_POLL_MS = 50;
const READY_TIMEOUT_MS = 180_000;
const SPARE_TIMEOUT_MS = 30_000;
/** After the page's load, before its CPU window: the static page has painted, the animation runs. */
const SETTLE_MS = 1000;
/** How long a released session's browser may take to exit. */
const EXIT_WAIT_MS = 10_000;

export async function runRecordingBench(options: RecordingBenchOptions): Promise<RecordingBenchResult> {
  const { runs, loads, windowSec, pauseMs, log } = options;
  const started = new Date();
  const loadAtStart = loadavg()[0]!;
  const site = await startRecordingSite();
  const server = await startApiServer({
    LOG_LEVEL: 'warn',
    EGRESS_ALLOW: site.host,
    ...(process.env.CHROMIUM_PATH ? { CHROMIUM_PATH: process.env.CHROMIUM_PATH } : {}),
  });
  const samples: SessionSample[] = [];
  let chromiumVersion = 'unknown';
  try {
    const serverPid = server.child.pid;
    if (serverPid === undefined) throw new Error('the server has no pid');
    const token = await newUser(server.url);
    const [projectId] = await createProjects(server.url, token, 1);
    const base = `/v1/local/projects/${projectId}/sessions`;

    /** The pool's warm browsers (not `taken`), once `afterMs` has passed and one is up with its page. */
    const waitForSpare = async (afterMs: number, taken: number | null = null): Promise<number[]> => {
      await sleep(afterMs);
      const deadline = Date.now() + SPARE_TIMEOUT_MS;
      for (;;) {
        const spares = chromiumBrowsersBelow(serverPid).filter((pid) => pid !== taken && hasRenderer(pid));
        if (spares.length > 0 || Date.now() > deadline) return spares;
        await sleep(100);
      }
    };

    /** Whether process `pid` has gone (or is a zombie) within EXIT_WAIT_MS. */
    const exits = async (pid: number): Promise<boolean> => {
      for (const deadline = Date.now() + EXIT_WAIT_MS; Date.now() < deadline; await sleep(50))
        if (!isRunning(pid)) return true;
      return !isRunning(pid);
    };

    const replayOf = (id: string) => call<Replay>(server.url, 'GET', `${base}/${id}/replay`, { token });

    const oneSession = async (side: RecordingSide, kind: RecordingKind): Promise<SessionSample> => {
      const spares = await waitForSpare(pauseMs);
      const t0 = performance.now();
      const session = await call<{ id: string; connectUrl: string }>(server.url, 'POST', base, {
        token,
        body: side === 'off' ? { record: false } : {},
        expect: 201,
      });
      const createMs = performance.now() - t0;
      let sessionBrowser: number | null = null;
      const sample: SessionSample = {
        side,
        kind,
        createMs,
        totalMs: Number.NaN,
        warmHit: false,
        loadMs: [],
        cpu: null,
        releaseMs: Number.NaN,
        replay: null,
      };
      const browser = await chromium.connectOverCDP(session.connectUrl);
      chromiumVersion = browser.version();
      try {
        const context = browser.contexts()[0];
        if (!context) throw new Error('connectOverCDP found no browser context');
        const page = context.pages()[0] ?? (await context.newPage());
        if ((await page.evaluate('1')) !== 1) throw new Error("page.evaluate('1') did not answer 1");
        sample.totalMs = performance.now() - t0;
        // The session took the warm browser that was waiting: the one spare still running now (checked
        // again once the session has ended: that browser must have exited with it).
        const now = new Set(chromiumBrowsersBelow(serverPid));
        const taken = spares.filter((pid) => now.has(pid));
        sessionBrowser = spares.length === 1 && taken.length === 1 ? taken[0]! : null;
        if (kind === 'loads') {
          await page.goto(`${site.url}/static`, { waitUntil: 'load' });
          for (let i = 0; i < loads; i++) {
            const t = performance.now();
            await page.goto(`${site.url}/static`, { waitUntil: 'load' });
            sample.loadMs.push(performance.now() - t);
          }
        } else {
          await page.goto(`${site.url}/${kind}`, { waitUntil: 'load' });
          // The pool's next browser launched after the create: its start is not in the window.
          await waitForSpare(0, sessionBrowser);
          await sleep(SETTLE_MS);
          const browserCpu = () => (sessionBrowser === null ? Number.NaN : treeCpuSeconds(sessionBrowser));
          const before = { server: cpuSecondsOf(serverPid), browser: browserCpu(), at: performance.now() };
          await sleep(windowSec * 1000);
          const after = { server: cpuSecondsOf(serverPid), browser: browserCpu(), at: performance.now() };
          sample.cpu = {
            server: after.server - before.server,
            browser: after.browser - before.browser,
            windowSec: (after.at - before.at) / 1000,
          };
        }
      } finally {
        // Over CDP this only closes the connection: the session runs until it is released.
        await browser.close().catch(() => {});
      }
      const serverCpuBefore = cpuSecondsOf(serverPid);
      const r0 = performance.now();
      await call(server.url, 'POST', `${base}/${session.id}:release`, { token, body: {} });
      sample.releaseMs = performance.now() - r0;
      if (side === 'off') {
        const replay = await replayOf(session.id);
        if (replay.status !== 'NONE')
          throw new Error(`a session created with record: false is ${replay.status}`);
      } else sample.replay = await readyReplay(session.id, r0, serverCpuBefore);
      sample.warmHit = sessionBrowser !== null && (await exits(sessionBrowser));
      // A browser that outlived its session was not the session's: its CPU figure is not the session's.
      if (!sample.warmHit && sample.cpu) sample.cpu.browser = Number.NaN;
      return sample;
    };

    /** Polls the replay every 50 ms until READY: what it says then, and what the wait took. */
    const readyReplay = async (
      id: string,
      r0: number,
      serverCpuBefore: number,
    ): Promise<NonNullable<SessionSample['replay']>> => {
      const deadline = Date.now() + READY_TIMEOUT_MS;
      for (;;) {
        const replay = await replayOf(id);
        if (replay.status === 'READY') {
          const readyMs = performance.now() - r0;
          const serverCpu = cpuSecondsOf(serverPid) - serverCpuBefore;
          const [first] = replay.pages;
          let mp4Bytes = 0;
          for (const p of replay.pages) {
            if (!p.mp4Url) continue;
            const mp4 = await fetch(p.mp4Url, { headers: { Authorization: `Bearer ${token}` } });
            mp4Bytes += (await mp4.arrayBuffer()).byteLength;
          }
          return {
            readyMs,
            serverCpu,
            recordedMs: replay.pages.reduce(
              (sum, p) => sum + ((p.endTimeMs ?? p.startTimeMs) - p.startTimeMs),
              0,
            ),
            bytes: replay.bytes,
            frames: replay.pages.reduce((sum, p) => sum + p.frames, 0),
            pages: replay.pages.length,
            mp4Bytes,
            width: first?.width ?? 0,
            height: first?.height ?? 0,
          };
        }
        if (replay.status === 'FAILED') throw new Error(`the videos were not made: ${replay.error}`);
        if (Date.now() > deadline)
          throw new Error(`the replay is still ${replay.status} after ${READY_TIMEOUT_MS} ms`);
        await sleep(REPLAY_POLL_MS);
      }
    };

    const summary = (s: SessionSample) =>
      [
        `create ${fmt(s.createMs, 1)} ms, → evaluate ${fmt(s.totalMs, 1)} ms${s.warmHit ? '' : ' (not the warm browser)'}`,
        s.loadMs.length
          ? `loads p50 ${fmt([...s.loadMs].sort((a, b) => a - b)[s.loadMs.length >> 1]!, 1)} ms`
          : '',
        s.cpu ? `CPU server ${fmt(s.cpu.server, 2)} s, browser ${fmt(s.cpu.browser, 2)} s` : '',
        `release ${fmt(s.releaseMs, 1)} ms`,
        s.replay
          ? `READY after ${fmt(s.replay.readyMs, 0)} ms, ${s.replay.frames} frames, ${fmt(s.replay.bytes / 1024, 0)} KiB over ${fmt(s.replay.recordedMs / 1000, 1)} s`
          : '',
      ]
        .filter(Boolean)
        .join('; ');

    // Untimed: the server's first sessions each way (its first browsers, the first ffmpeg runs).
    for (const side of ['on', 'off'] as const) {
      const s = await oneSession(side, 'loads');
      log(`  [recording] warm-up ${side}: ${summary(s)}`);
    }
    for (let round = 0; round < runs; round++) {
      for (const [k, kind] of RECORDING_KINDS.entries()) {
        const order: RecordingSide[] = (round + k) % 2 === 0 ? ['on', 'off'] : ['off', 'on'];
        for (const side of order) {
          const s = await oneSession(side, kind);
          samples.push(s);
          log(`  [recording] round ${round + 1} ${kind} ${side}: ${summary(s)}`);
        }
      }
    }
  } finally {
    await server.stop();
    await site.close();
  }
  const warnings = server
    .output()
    .split('\n')
    .filter((line) => line.includes('recording'));
  const figures = recordingFigures(samples, { warnings, loadAtStart, chromium: chromiumVersion });
  return { figures, markdown: recordingMarkdown(figures, options, started) };
}
