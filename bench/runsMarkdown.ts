/** The `runs` scenario's section of docs/benchmarks.md (bench/runs.ts measures, this tells). */
import { readFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { resolve } from 'node:path';
import {
  type ByHand,
  type EndToEnd,
  type Quantiles,
  quantiles,
  RUNS_BLOCK,
  RUNS_CLIENTS,
  RUNS_SCRIPT,
  RUNS_TARGETS,
  type RunsFigures,
  type RunsOptions,
  runsHeadline,
} from './runsFigures.ts';
import { fmt, table } from './stats.ts';

const verdict = (ok: boolean) => (ok ? '**PASS**' : '**MISS**');
const q = (x: Quantiles, digits = 1) => [fmt(x.p50, digits), fmt(x.p95, digits)];
const finite = (values: Array<number | null | undefined>) =>
  values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v));

export function runsMarkdown(f: RunsFigures, o: RunsOptions, started: Date): string {
  const h = runsHeadline(f);
  const playwright = (
    JSON.parse(
      readFileSync(resolve(import.meta.dirname, '../node_modules/playwright-core/package.json'), 'utf8'),
    ) as {
      version: string;
    }
  ).version;
  const { loads, sustained: s } = f;
  const out = ['## 11. Runs: an agent run end to end, against the same script by hand', ''];
  out.push(
    `Measured ${started.toISOString()} (bench/runs.ts; BENCH_RUNS_RUNS=${o.runs} BENCH_RUNS_SUSTAIN_SEC=${o.sustainSec}); ${cpus().length} CPUs (${cpus()[0]?.model ?? 'unknown'}), ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM, Node ${process.version}, playwright-core ${playwright}; Chromium \`${f.chromium.path}\` (${f.chromium.source}; ${f.chromium.server === f.chromium.path ? "the server's log names the same binary" : `the server's log names ${f.chromium.server ?? 'none'}`}), \`${f.chromium.version}\`; browsers at isolation \`${f.isolation.browsers}\`, run scripts at \`${f.isolation.runner}\`. 1-min load average ${fmt(loads.start, 2)} at the start, ${fmt(loads.afterTiming, 2)} after the timed runs, ${fmt(loads.end, 2)} after the sustained phase (a load near the core count means the figures are depressed).`,
    '',
  );
  out.push(
    `**Method.** One server started as \`npm start\` starts it (test/serverProcess.ts: SQLite, the local provider, LOCAL_WARM_BROWSERS=1, RUN_CONCURRENCY=2, the default warm runners). An agent whose script is \`${RUNS_SCRIPT.replace('\n', ' ')}\`. **End to end**: \`POST /v1/local/projects/{id}/agents/{id}/runs {"wait":${30}}\` with a sign-in token, one at a time, each SUCCEEDED with the title; client-side round trip (fetch, keep-alive). **Floor**: the same script by hand, a fresh \`node\` (the bench's own, ${process.version}) with playwright-core that connects over CDP to an already-created session's \`connectUrl\` (through the same server, as the runner does), opens the page, prints the title and disconnects, timed from spawn to exit; the session's create and release are untimed. **In process**: the bench's already-loaded playwright-core doing the same, a second reference. ${o.runs} timed runs per side after 2 warm-ups, in blocks of ${RUNS_BLOCK}, the blocks alternating and their order turning each round; each end-to-end block starts with one untimed run so every timed one follows another, ${o.pauseMs > 0 ? `after an untimed pause of ${o.pauseMs} ms in which the warm browser and runner processes the previous run took are replaced (the warm pool on, as a run arriving on its own meets it; the sustained phase below is back to back)` : 'back to back, with no pause: each run overlaps the replacement of the warm browser and runner process the previous run took'}. p95 is the nearest rank.`,
    '',
  );
  out.push(
    table(
      ['way (ms)', 'p50', 'p95', 'p50 ÷ floor p50'],
      [
        ['**end to end**: `POST …/runs {"wait":30}` round trip', ...q(h.endToEnd), fmt(h.ratio, 2)],
        ['floor: fresh `node` + playwright-core, spawn → exit', ...q(h.floor), '1.00'],
        ['in process: loaded playwright-core', ...q(h.inProcess), fmt(h.inProcess.p50 / h.floor.p50, 2)],
      ],
    ),
    '',
  );

  const e = f.endToEnd;
  const split = (pick: (r: EndToEnd) => number | null | undefined) => quantiles(finite(e.map(pick)));
  const runnerRest = (r: EndToEnd) =>
    r.runner
      ? r.runner.totalMs - r.runner.waitMs - (r.runner.connectMs ?? 0) - (r.runner.scriptMs ?? 0)
      : null;
  const rows: Array<[string, Quantiles]> = [
    ['queue wait (createdAt → startedAt)', split((r) => r.queue)],
    [
      'session ready (startedAt → "session … ready": create through the local provider)',
      split((r) => r.session),
    ],
    ["script's process (ready line → the runner's timings line)", split((r) => r.process)],
    ['  of which: waiting for its process (warm: the Unix socket bridge)', split((r) => r.runner?.waitMs)],
    ['  of which: `connectOverCDP` over the bridge', split((r) => r.runner?.connectMs)],
    ['  of which: script (load it, first page, goto, title)', split((r) => r.runner?.scriptMs)],
    ["  of which: the rest (result, the process's exit, its folder removed)", split(runnerRest)],
    ['last line (timings line → "session … is released as the run ends")', split((r) => r.release)],
    [
      'end (that line → endedAt: lines stored, the run ended; its session is released after)',
      split((r) => r.finish),
    ],
    ['HTTP and the wait (round trip − (endedAt − createdAt))', split((r) => r.http)],
    ['**round trip**', h.endToEnd],
  ];
  out.push(
    `**Where the time goes, end to end**: from each run's own record (createdAt, startedAt, endedAt) and its \`system\` log lines ("session … ready", the runner's \`runner timings (ms): …\` line, "session … is released as the run ends"; log timestamps are whole milliseconds). Runner processes warm: ${h.warm} of ${h.withTimings} timed runs.`,
    '',
  );
  out.push(
    table(
      ['phase (ms)', 'p50', 'p95', 'share of round-trip p50'],
      rows.map(([label, x]) => [label, ...q(x), `${fmt((100 * x.p50) / h.endToEnd.p50, 0)} %`]),
    ),
    '',
  );
  // The leaves of the split (no totals), largest p50 first.
  const leaves = rows.filter(([label]) => label.startsWith('  ') || !/process|round trip/.test(label));
  const largest = [...leaves].sort((a, b) => b[1].p50 - a[1].p50).slice(0, 3);
  const connect = (list: ByHand[]) => fmt(quantiles(list.map((r) => r.connect)).p50, 0);
  out.push(
    `Largest at the median: ${largest
      .map(
        ([label, x]) =>
          `${label
            .trim()
            .replace(/ \(.*$/, '')
            .replace(/^of which: /, '')} ${fmt(x.p50, 0)} ms (${fmt((100 * x.p50) / h.endToEnd.p50, 0)} %)`,
      )
      .join(
        ', ',
      )}. The runner's \`connectOverCDP\` (its process → the Unix socket → the bridge in the server → \`connectUrl\`) takes ${fmt(split((r) => r.runner?.connectMs).p50, 0)} ms at the median against ${connect(f.floor)} ms for the floor's fresh node and ${connect(f.inProcess)} ms in process, both straight to \`connectUrl\`.`,
    '',
  );
  const phases = (list: ByHand[], pick: (r: ByHand) => number) => q(quantiles(list.map(pick)));
  const spawnExit = (r: ByHand) => r.total - r.boot - r.import - r.connect - r.script - r.disconnect;
  out.push(
    table(
      ['by hand, phase (p50 / p95 ms)', 'floor', 'in process'],
      [
        [
          'node start (spawn → its script, as its own clock tells)',
          phases(f.floor, (r) => r.boot).join(' / '),
          '–',
        ],
        ['`import("playwright-core")`', phases(f.floor, (r) => r.import).join(' / '), '–'],
        [
          '`connectOverCDP(connectUrl)`',
          ...[f.floor, f.inProcess].map((l) => phases(l, (r) => r.connect).join(' / ')),
        ],
        [
          'first page, goto, title',
          ...[f.floor, f.inProcess].map((l) => phases(l, (r) => r.script).join(' / ')),
        ],
        ['disconnect', ...[f.floor, f.inProcess].map((l) => phases(l, (r) => r.disconnect).join(' / '))],
        ['the rest (spawn before its clock, exit)', phases(f.floor, spawnExit).join(' / '), '–'],
        ['**total**', ...[f.floor, f.inProcess].map((l) => phases(l, (r) => r.total).join(' / '))],
      ],
    ),
    '',
  );
  const m = f.spawnMetric;
  out.push(
    `**The runner's spawn.** A run's process spawned → ready (playwright-core loaded), from the timings lines: p50 ${fmt(h.spawn.p50, 0)} ms, p95 ${fmt(h.spawn.p95, 0)} ms; a warm process was spawned ahead of its run, so the run waited only for it to be handed over (p50 ${fmt(h.wait.p50, 0)} ms, p95 ${fmt(h.wait.p95, 0)} ms). ${m ? `\`browserdeck_run_spawn_seconds\` over the timed phase: ${m.count} observations, mean ${fmt(m.meanMs, 0)} ms, ${fmt(100 * m.within75ms, 0)} % within 75 ms.` : '/metrics did not show `browserdeck_run_spawn_seconds`.'}`,
    '',
  );
  out.push(
    `**Sustained.** RUN_CONCURRENCY=2, ${RUNS_CLIENTS} clients, each of an account of its own (one account's runs take one slot at a time), each posting \`{"wait":30}\` runs in a loop for ${o.sustainSec} s (${fmt(s.seconds, 1)} s until the last came back): **${s.runs} runs, ${fmt(s.runsPerSec, 2)} runs/s**, round trip p50 ${fmt(s.roundTrip.p50, 0)} / p95 ${fmt(s.roundTrip.p95, 0)} ms; of a run (p50 / p95 ms): queue wait ${fmt(s.queue.p50, 0)} / ${fmt(s.queue.p95, 0)}, session ready ${fmt(s.session.p50, 0)} / ${fmt(s.session.p95, 0)}, script's process ${fmt(s.process.p50, 0)} / ${fmt(s.process.p95, 0)}, last line ${fmt(s.release.p50, 0)} / ${fmt(s.release.p95, 0)}; warm runner processes ${s.warmRunners} of ${s.runs}. With ${RUNS_CLIENTS} clients on 2 slots a run queues about one run's time; every run also starts a replacement browser (LOCAL_WARM_BROWSERS) and runner process, on ${cpus().length} cores. **Failures: ${s.failures.length}**${s.failures.length ? ` (${s.failures.slice(0, 3).join('; ').slice(0, 600)})` : ''}.`,
    '',
  );
  out.push(
    table(
      ['target (issue 25)', 'measured', 'goal', 'verdict'],
      [
        [
          'end-to-end p50',
          `${fmt(h.endToEnd.p50, 1)} ms (p95 ${fmt(h.endToEnd.p95, 1)})`,
          `≤ ${RUNS_TARGETS.p50Ms} ms`,
          verdict(h.endToEnd.p50 <= RUNS_TARGETS.p50Ms),
        ],
        [
          'end-to-end p50 ÷ floor p50',
          `${fmt(h.ratio, 2)}× (${fmt(h.endToEnd.p50, 1)} / ${fmt(h.floor.p50, 1)} ms)`,
          `≤ ${RUNS_TARGETS.overFloorP50}×`,
          verdict(h.ratio <= RUNS_TARGETS.overFloorP50),
        ],
        [
          "runner spawn p50 (a run's process spawned → ready)",
          `${fmt(h.spawn.p50, 0)} ms (the run's wait for it: ${fmt(h.wait.p50, 0)} ms)`,
          `≤ ${RUNS_TARGETS.spawnP50Ms} ms`,
          verdict(h.spawn.p50 <= RUNS_TARGETS.spawnP50Ms),
        ],
        [
          `sustained ${fmt(s.seconds, 0)} s at RUN_CONCURRENCY=2: failures`,
          `${s.failures.length} of ${s.runs + s.failures.length} (${fmt(s.runsPerSec, 2)} runs/s)`,
          '0',
          verdict(s.failures.length === 0 && s.runs > 0),
        ],
      ],
    ),
    '',
  );
  return out.join('\n');
}
