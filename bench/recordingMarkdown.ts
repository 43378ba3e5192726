import { readFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { resolve } from 'node:path';
import type { CpuPerMinute, RecordingFigures, Spread } from './recordingFigures.ts';
import { RECORDING_PAGE_LOAD_TARGET, type RecordingBenchOptions } from './recordingSample.ts';
import { STATIC_PAGE_BYTES } from './recordingSite.ts';
import { fmt, table } from './stats.ts';

const ratio = (on: number, off: number) => (off > 0 ? `${fmt(on / off, 2)}×` : 'n/a');
const signed = (value: number, digits: number) =>
  `${value > -(10 ** -digits) / 2 ? '+' : '−'}${fmt(Math.abs(value), digits)}`;
const percent = (r: number) => `${signed((r - 1) * 100, 1)} %`;
const verdict = (ok: boolean) => (ok ? '**pass**' : '**MISS**');
const SETTLE_NOTE =
  "once the pool's next warm browser is up (so its launch is not in the window), a second to settle";

/** Section 18 of docs/benchmarks.md: the recording's cost, recorded against not recorded. */
export function recordingMarkdown(f: RecordingFigures, o: RecordingBenchOptions, started: Date): string {
  const playwright = (
    JSON.parse(
      readFileSync(resolve(import.meta.dirname, '../node_modules/playwright-core/package.json'), 'utf8'),
    ) as { version: string }
  ).version;
  const out = ['## 18. Recordings (issue 39): what recording a session costs', ''];
  out.push(
    `Measured ${started.toISOString()} (bench/recording.ts; BENCH_RECORDING_RUNS=${o.runs} BENCH_RECORDING_LOADS=${o.loads} BENCH_RECORDING_WINDOW_SEC=${o.windowSec} BENCH_RECORDING_PAUSE_MS=${o.pauseMs}); ${cpus().length} CPUs, ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM, Node ${process.version}, playwright-core ${playwright}, the server's Chromium ${f.chromium}. 1-min load average ${fmt(f.loads.start, 2)} at the start, ${fmt(f.loads.end, 2)} at the end.`,
    '',
  );
  out.push(
    `One server started as \`npm start\` starts it (SQLite in a temporary DATA_DIR, local identity, the local provider with LOCAL_WARM_BROWSERS at its default, RECORD_SESSIONS at its default: on), a loopback site allowed by \`EGRESS_ALLOW=127.0.0.1:<port>\`, one account. **Recorded** sessions are created with \`{}\` (recorded by default), **not recorded** ones with \`{ record: false }\` (their replay is checked to say \`NONE\`): the one server, the one pool, so the sides differ by the recording alone. Each of ${o.runs} rounds runs three kinds of session on each side, the sides' order turning by round and kind: *page loads* (create → \`chromium.connectOverCDP(connectUrl)\` → \`page.evaluate('1')\`, then one untimed and ${o.loads} timed \`page.goto\` of the static page: ${fmt(STATIC_PAGE_BYTES.html / 1024, 1)} KiB of HTML and one ${fmt(STATIC_PAGE_BYTES.image / 1024, 1)} KiB PNG, both \`no-store\`, so each load fetches both through the egress proxy), *static* and *animated* (the same start, then the page shown, ${SETTLE_NOTE}, and a ${o.windowSec}-s window whose CPU time is read from /proc: user + system of the server process, and of the session's browser process tree: its Chromium browser process with its zygotes, renderers, GPU and network processes, not the pool's next browser). The animated page changes a box's colour every animation frame and turns a square with a CSS animation. Every session is released (\`POST …:release\`) after its client disconnects; a recorded one's replay is then polled every 50 ms until \`READY\` before the next session starts, so no ffmpeg run overlaps a measurement. Before each create the bench pauses ${o.pauseMs} ms and waits until the pool's warm browser is up (${f.sessions - f.coldSessions} of ${f.sessions} timed sessions took it). Client-side wall time; p90 is the nearest rank.`,
    '',
  );
  const row = (name: string, s: { on: Spread; off: Spread }, pick: 'p50' | 'p90', digits = 1) => [
    name,
    fmt(s.on[pick], digits),
    fmt(s.off[pick], digits),
    ratio(s.on[pick], s.off[pick]),
  ];
  const cpuRow = (name: string, c: { on: CpuPerMinute; off: CpuPerMinute }, part: keyof CpuPerMinute) => [
    name,
    fmt(c.on[part], 2),
    fmt(c.off[part], 2),
    `${ratio(c.on[part], c.off[part])} (${signed(c.on[part] - c.off[part], 2)})`,
  ];
  out.push(
    table(
      ['measurement', 'recorded', 'not recorded', 'recorded ÷ not'],
      [
        row(`create (\`POST …/sessions\` answered) p50 ms, ${f.create.on.samples} per side`, f.create, 'p50'),
        row('connectOverCDP → first evaluate (after the create) p50 ms', f.connectToEvaluate, 'p50'),
        row('**create → connected → first evaluate p50 ms**', f.createToEvaluate, 'p50'),
        row('create → connected → first evaluate p90 ms', f.createToEvaluate, 'p90'),
        row(`**static page load p50 ms** (${f.pageLoad.on.samples} per side)`, f.pageLoad, 'p50'),
        row('static page load p90 ms', f.pageLoad, 'p90'),
        row('release (`POST …:release` answered) p50 ms', f.release, 'p50'),
        cpuRow('static page: server CPU s per minute', f.cpu.static, 'server'),
        cpuRow("static page: session's browser CPU s per minute", f.cpu.static, 'browser'),
        cpuRow('**static page: both, CPU s per minute**', f.cpu.static, 'total'),
        cpuRow('animated page: server CPU s per minute', f.cpu.animated, 'server'),
        cpuRow("animated page: session's browser CPU s per minute", f.cpu.animated, 'browser'),
        cpuRow('**animated page: both, CPU s per minute**', f.cpu.animated, 'total'),
      ],
    ),
    '',
  );
  const kinds = ['loads', 'static', 'animated'] as const;
  const r = f.recorded;
  const perKind = (name: string, pick: (k: (typeof r)[keyof typeof r]) => string) => [
    name,
    ...kinds.map((k) => pick(r[k])),
  ];
  out.push(
    'The recorded sessions, per kind (medians over the sessions; "per minute" is per minute of a tab\'s recording, its `endTimeMs − startTimeMs`):',
    '',
  );
  out.push(
    table(
      [
        'recorded session',
        `page loads (${o.loads + 1})`,
        `static page (${o.windowSec} s)`,
        `animated page (${o.windowSec} s)`,
      ],
      [
        perKind('sessions', (k) => String(k.sessions)),
        perKind('seconds recorded (first frame → end)', (k) => fmt(k.recordedSec, 1)),
        perKind('frames kept a second', (k) => fmt(k.framesPerSec, 2)),
        perKind('mean frame, KiB (JPEG)', (k) => fmt(k.frameKiB, 1)),
        perKind('frame size, px', (k) => `${k.width}×${k.height}`),
        perKind('**frames (the replay’s `bytes`), MiB per minute**', (k) => fmt(k.framesMiBPerMin, 2)),
        perKind('MP4 kept after, MiB per minute', (k) => fmt(k.mp4MiBPerMin, 3)),
        perKind('release → READY, s', (k) => fmt(k.readySec, 2)),
        perKind('**release → READY, s per minute recorded**', (k) => fmt(k.readySecPerMin, 2)),
        perKind('server process CPU, release → READY, s per minute recorded', (k) =>
          fmt(k.serverCpuSecPerMin, 2),
        ),
      ],
    ),
    '',
  );
  const pageLoadOk = f.ratio.pageLoadP50 - 1 <= RECORDING_PAGE_LOAD_TARGET;
  out.push(
    table(
      ['target (issue 39)', 'measured', 'goal', 'verdict'],
      [
        [
          'static page load p50, recorded ÷ not − 1',
          `${percent(f.ratio.pageLoadP50)} (${fmt(f.pageLoad.on.p50, 1)} / ${fmt(f.pageLoad.off.p50, 1)} ms)`,
          `≤ +${RECORDING_PAGE_LOAD_TARGET * 100} %`,
          verdict(pageLoadOk),
        ],
        [
          'create → first evaluate p50 / p90, recorded ÷ not',
          `${fmt(f.ratio.createToEvaluateP50, 2)}× / ${fmt(f.ratio.createToEvaluateP90, 2)}×`,
          '(info)',
          '',
        ],
      ],
    ),
    '',
  );
  out.push(whereTheTimeGoes(f), '');
  if (f.warnings.length)
    out.push(
      `The server logged ${f.warnings.length} warning line(s) about the recording; the first: \`${f.warnings[0]!.slice(0, 300)}\`.`,
      '',
    );
  return out.join('\n');
}

/** The paragraph on where the recording's cost lies, from this run's figures. */
function whereTheTimeGoes(f: RecordingFigures): string {
  const a = f.cpu.animated;
  const s = f.cpu.static;
  const browserAdded = a.on.browser - a.off.browser;
  const serverAdded = a.on.server - a.off.server;
  const r = f.recorded;
  return [
    `**Where the time goes.** A recorded tab is screencast by its browser (\`Page.startScreencast\`, JPEG at quality 70, at most 1280×1280 px), and the server acknowledges at most 10 frames a second a tab (\`RECORDING_MAX_FPS_DEFAULT\`), so a page that never stops changing costs at most that: the animated page kept ${fmt(r.animated.framesPerSec, 1)} frames a second of ${fmt(r.animated.frameKiB, 1)} KiB, the static page ${fmt(r.static.framesPerSec, 2)} (a still page sends a frame only when it repaints).`,
    `In the browser the cost is capturing and JPEG-encoding each frame and base64-encoding it into the CDP message: on the animated page recording adds ${signed(browserAdded, 2)} CPU-s per minute to the session's browser (${ratio(a.on.browser, a.off.browser)}), on the static page ${signed(s.on.browser - s.off.browser, 2)}.`,
    `In the server it is reading those messages off the browser's pipe (about 4/3 of the JPEG's bytes as base64 inside JSON), decoding them, and writing the frames to the blob store (SQLite \`stored_blobs\` here: a chunk a tab at most every second or per MiB, the manifest after each): ${signed(serverAdded, 2)} CPU-s per minute on the animated page (${ratio(a.on.server, a.off.server)}), ${signed(s.on.server - s.off.server, 2)} on the static one.`,
    `After the release, the videos: ffmpeg runs three times a tab, one after the other (the frames decoded and fitted to the first frame's size, piped into libx264 \`veryfast\` at a constant 10 frames a second, then cut into 2-s HLS segments without re-encoding); the frames are read back from the blob store and, once the videos are in, deleted. The encode works at the constant rate, so a still tab still costs about its length: release → READY took ${fmt(r.static.readySecPerMin, 2)} s per minute recorded for the static page and ${fmt(r.animated.readySecPerMin, 2)} s for the animated one, while the server process itself used ${fmt(r.static.serverCpuSecPerMin, 2)} and ${fmt(r.animated.serverCpuSecPerMin, 2)} CPU-s per minute meanwhile (the rest is ffmpeg, one session's videos at a time). A tab's videos also cost a fixed part (three ffmpeg starts, the work directories, the blob writes): the page-load sessions' tabs, ${fmt(r.loads.recordedSec, 1)} s long, took ${fmt(r.loads.readySec, 2)} s from release to READY, which is why their per-minute figures are large. What is kept afterwards is the MP4 and its HLS segments (the same H.264 stream again, cut without re-encoding, so about as large): ${fmt(r.animated.mp4MiBPerMin, 2)} MiB of MP4 per minute for the animated page and ${fmt(r.static.mp4MiBPerMin, 2)} for the static one, against ${fmt(r.animated.framesMiBPerMin, 2)} and ${fmt(r.static.framesMiBPerMin, 2)} MiB of frames while they ran. The frames here are ${r.animated.width}×${r.animated.height} (the headless browser's default viewport); a larger viewport makes larger frames, up to the 1280-px bound.`,
    `A page load in a recorded tab paints, and each paint is also captured and JPEG-encoded for the screencast (up to 10 a second, ${fmt(r.loads.framesPerSec, 1)} a second during the page-load sessions), on the same two cores as the load itself: the static page's load p50 is ${signed(f.pageLoad.on.p50 - f.pageLoad.off.p50, 1)} ms (${percent(f.ratio.pageLoadP50)}) recorded, p90 ${signed(f.pageLoad.on.p90 - f.pageLoad.off.p90, 1)} ms.`,
    `The create carries what a recording's start does (the manifest's first write and the note of whose it is, two blob writes that SQLite's one writer serialises with the create's own; the room check \`Recordings.reserve\`, which lists the recordings in the blob store, runs after the session has opened, beside it): create p50 ${fmt(f.create.on.p50, 1)} against ${fmt(f.create.off.p50, 1)} ms, and the screencast starts as the session opens, beside the client's connect and first evaluate (p50 ${fmt(f.connectToEvaluate.on.p50, 1)} against ${fmt(f.connectToEvaluate.off.p50, 1)} ms); the release waits for the last frames to be written (p50 ${fmt(f.release.on.p50, 1)} against ${fmt(f.release.off.p50, 1)} ms).`,
  ].join(' ');
}
