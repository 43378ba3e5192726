/**
 * Scenario `deploy`: what the deployment shapes of docs/deploy.md cost, side by side in one run.
 *
 * - the container image (Dockerfile, built with test/podman.ts's `buildImage` on the Debian base
 *   when `localhost/browserdeck:bench` is absent): its size and its big layers;
 * - cold start to `/readyz` 200: a container (`podman run -d` with the image test's `bubblewrap`
 *   settings, a fresh volume each time) against `npm start` semantics (a fresh server process on a
 *   fresh DATA_DIR, test/serverProcess.ts, on Debian's headless shell as the image runs it),
 *   interleaved;
 * - create → CDP connected → first evaluate three ways: directly on `npm start`, through nginx (TLS,
 *   the shipped deploy/nginx/browserdeck.conf, test/nginxFront.ts) in front of that same server,
 *   and on a container; interleaved rounds, each after a pause in which the warm browser refills.
 *
 * All traffic is to 127.0.0.1 (the container runs with `--network=host` and HOST=127.0.0.1).
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import tls from 'node:tls';
import { promisify } from 'node:util';
import { freePort } from '../test/freePort.ts';
import { type NginxFront, startNginxFront } from '../test/nginxFront.ts';
import {
  BASE_TAG,
  BUBBLEWRAP_SETTINGS,
  buildImage,
  containerLogs,
  ensureBaseImage,
  ensurePodman,
  podman,
  runDetached,
} from '../test/podman.ts';
import { startServerProcess } from '../test/serverProcess.ts';
import { localSessionApi } from './api.ts';
import { connectAndEvaluate } from './capacity.ts';
import { fmt, median, percentile, table } from './stats.ts';

export const DEPLOY_TAG = 'localhost/browserdeck:bench';
/** The Chromium the image runs (its CHROMIUM_PATH), and so the `npm start` side too. */
const HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell';
/** One session at a time per server; an account may hold half of it (the default per-owner cap). */
const MAX_SESSIONS = 4;
const WARM_BROWSERS = 1;
const READY_POLL_MS = 20;
const READY_TIMEOUT_MS = 120_000;

export type DeployWay = 'direct' | 'nginx' | 'container';
const WAYS: readonly DeployWay[] = ['direct', 'nginx', 'container'];
export type DeployPhase = 'create' | 'connect' | 'evaluate' | 'total';
const PHASES: readonly DeployPhase[] = ['create', 'connect', 'evaluate', 'total'];
type StartSide = 'container' | 'npmStart';
const START_SIDES: readonly StartSide[] = ['container', 'npmStart'];

interface Quantiles {
  p50: number;
  p95: number;
}

export interface DeployOptions {
  /** Cold starts per side (container, `npm start`), after one untimed start each. */
  starts: number;
  /** Timed create → connected → first evaluate rounds per way, after one untimed round each. */
  runs: number;
  /** Untimed pause before each round, for the warm browser to refill. */
  pauseMs: number;
  /** `absent`: build the image only when the tag is missing; `always`: rebuild it (podman's cache makes an unchanged checkout quick). */
  build: 'absent' | 'always';
  log: (line: string) => void;
}

export interface DeployLayer {
  label: string;
  bytes: number;
}

export interface DeployFigures {
  image: { tag: string; id: string; created: string; built: boolean; size: number; layers: DeployLayer[] };
  /** Per side: ms to the process/container being up (`listening` line / `podman run -d` returned) and to /readyz 200. */
  starts: Record<StartSide, { up: number[]; ready: number[] }>;
  sessions: Record<DeployWay, Record<DeployPhase, Quantiles>>;
  ratio: Record<'nginx' | 'container', Record<DeployPhase, number>>;
  chromium: { host: string; container: string };
  isolation: { host: string; container: string };
  loads: { start: number; afterStarts: number; end: number };
}

export interface DeployResult {
  figures: DeployFigures;
  markdown: string;
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
const quantiles = (values: number[]): Quantiles => ({ p50: median(values), p95: percentile(values, 95) });

/**
 * Until `GET url/readyz` answers 200 (polled every READY_POLL_MS); `alive` (which may cost a process
 * of its own, so it runs only past 10 s and then every 2 s) throws when the server is gone.
 */
async function untilReady(url: string, alive: () => Promise<void>): Promise<void> {
  const start = Date.now();
  let checked = start + 8_000;
  for (;;) {
    const ok = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2000) }).then(
      (res) => res.status === 200,
      () => false,
    );
    if (ok) return;
    if (Date.now() - checked >= 2_000) {
      checked = Date.now();
      await alive();
    }
    if (Date.now() - start > READY_TIMEOUT_MS)
      throw new Error(`${url}/readyz did not answer 200 within ${READY_TIMEOUT_MS} ms`);
    await sleep(READY_POLL_MS);
  }
}

/** The image, built if absent; its size and the layers that hold bytes. */
async function imageFigures(
  scratch: string,
  build: DeployOptions['build'],
  log: (line: string) => void,
): Promise<DeployFigures['image']> {
  await ensurePodman(log);
  const exists = await podman(['image', 'exists', DEPLOY_TAG]).then(
    () => true,
    () => false,
  );
  const built = !exists || build === 'always';
  if (built) {
    await ensureBaseImage(log);
    log(`  [deploy] building ${DEPLOY_TAG} from the Dockerfile on ${BASE_TAG}…`);
    await buildImage(DEPLOY_TAG, scratch, (line) => log(`  [deploy] ${line}`));
  }
  const [size, id, created] = (
    await podman(['image', 'inspect', '--format', '{{.Size}}|{{.Id}}|{{.Created}}', DEPLOY_TAG])
  )
    .trim()
    .split('|');
  const history = JSON.parse(await podman(['history', '--format', 'json', DEPLOY_TAG])) as Array<{
    size: number;
    CreatedBy: string;
  }>;
  const copies = finalStageCopies();
  const bottomUp = [...history].reverse();
  // The image's last COPY layers are the final stage's COPY lines, when the Dockerfile still has as many.
  const copyLayers = bottomUp
    .filter((layer) => /\bCOPY (?:file|dir):/.test(layer.CreatedBy))
    .slice(-copies.length);
  const named = copies.length > 0 && copyLayers.length === copies.length;
  const layers = bottomUp
    .filter((layer) => layer.size > 0)
    .map((layer) => ({
      label: layerLabel(layer.CreatedBy, named ? copies[copyLayers.indexOf(layer)] : undefined),
      bytes: layer.size,
    }));
  return {
    tag: DEPLOY_TAG,
    id: (id ?? '').slice(0, 12),
    created: (created ?? '').replace(/\.\d+/, '').replace(' +0000 UTC', ' UTC'),
    built,
    size: Number(size),
    layers,
  };
}

/** The COPY instructions of the Dockerfile's last stage, in order (continuation lines joined, flags but --from dropped). */
function finalStageCopies(): string[] {
  const lines = readFileSync(resolve(import.meta.dirname, '../Dockerfile'), 'utf8')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim());
  const last = lines.findLastIndex((line) => /^FROM\s/i.test(line));
  return lines
    .slice(last + 1)
    .filter((line) => /^COPY\s/i.test(line))
    .map((line) =>
      line
        .split(/\s+/)
        .filter((word) => !word.startsWith('--') || word.startsWith('--from='))
        .join(' '),
    );
}

/** What a layer is, from the instruction that made it (and, for a COPY, the Dockerfile's line). */
function layerLabel(createdBy: string, copy: string | undefined): string {
  if (/\bapt-get install\b/.test(createdBy)) {
    const packages = /--no-install-recommends\s+(.*?)\s+&&/.exec(createdBy)?.[1]?.split(/\s+/) ?? [];
    return `apt layer (\`apt-get install\` ${packages.join(' ')})`;
  }
  if (/\bADD file:\S+ in \/\s*$/.test(createdBy)) return `Debian 12 base (${BASE_TAG})`;
  const into = /\bCOPY (?:file|dir):\S+ in (\S+)/.exec(createdBy)?.[1];
  if (into === '/usr/local/bin/node') return `node (\`${copy ?? 'COPY … /usr/local/bin/node'}\`)`;
  if (into) return `app: \`${copy ?? `COPY … ${into}`}\``;
  return createdBy.replace(/^\/bin\/sh -c (#\(nop\) )?/, '').slice(0, 80);
}

/** A container of the image on a free loopback port and a fresh volume; resolves once it is running. */
async function runContainer(scratch: string, name: string, port: number) {
  const url = `http://127.0.0.1:${port}`;
  const volume = mkdtempSync(join(scratch, 'volume-'));
  mkdirSync(volume, { recursive: true });
  const env = {
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: url,
    LOCAL_MAX_SESSIONS: String(MAX_SESSIONS),
    LOCAL_WARM_BROWSERS: String(WARM_BROWSERS),
  };
  await runDetached({ name, image: DEPLOY_TAG, volume, env, extra: BUBBLEWRAP_SETTINGS }).catch(
    async (error: unknown) => {
      // A container created but not started keeps its name and volume: nothing is left behind.
      await podman(['rm', '-f', '-t', '0', name]).catch(() => {});
      rmSync(volume, { recursive: true, force: true });
      throw error;
    },
  );
  const alive = async () => {
    const state = (await podman(['inspect', '-f', '{{.State.Status}}', name])).trim();
    if (state !== 'running')
      throw new Error(`container ${name} is ${state}, not ready:\n${await containerLogs(name)}`);
  };
  return {
    name,
    url,
    alive,
    async remove() {
      await podman(['stop', '-t', '10', name], 60_000).catch(() => {});
      await podman(['rm', '-f', '-t', '0', name]).catch(() => {});
      rmSync(volume, { recursive: true, force: true });
    },
  };
}

/** The `npm start` side's server: a fresh process on a fresh DATA_DIR (test/serverProcess.ts). */
async function startHostServer(port: number, extraEnv: Record<string, string> = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'browserdeck-bench-deploy-'));
  try {
    const server = await startServerProcess(
      {
        DATA_DIR: dataDir,
        HOST: '127.0.0.1',
        PORT: String(port),
        CHROMIUM_PATH: HEADLESS_SHELL,
        LOCAL_MAX_SESSIONS: String(MAX_SESSIONS),
        LOCAL_WARM_BROWSERS: String(WARM_BROWSERS),
        ...extraEnv,
      },
      READY_TIMEOUT_MS,
    );
    return {
      server,
      async stop() {
        const code = await server.stop();
        rmSync(dataDir, { recursive: true, force: true });
        return code;
      },
    };
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}

/** The isolation level a server's start-up lines name. */
const isolationOf = (output: string) =>
  /isolation level ([a-z-]+)/.exec(output)?.[1] ?? /"isolation":"([a-z-]+)"/.exec(output)?.[1] ?? 'unknown';

type Timings = Record<DeployPhase, number>;

export async function runDeployBench(options: DeployOptions): Promise<DeployResult> {
  const { starts, runs, pauseMs, log } = options;
  const started = new Date();
  const loadStart = loadavg()[0]!;
  const scratch = mkdtempSync(join(tmpdir(), 'browserdeck-bench-deploy-'));
  const prefix = `browserdeck-bench-${process.pid}`;
  let containers = 0;
  const cleanups: Array<() => Promise<unknown>> = [];
  const defaultCas = tls.getCACertificates('default');
  try {
    // ---- the image -------------------------------------------------------------------------------
    const image = await imageFigures(scratch, options.build, log);
    log(
      `  [deploy] ${DEPLOY_TAG} (${image.id}, created ${image.created}${image.built ? ', built now' : ''}): ${fmt(image.size / 1e6, 0)} MB; ${image.layers.map((l) => `${l.label} ${MB(l.bytes)} MB`).join('; ')}`,
    );

    // ---- cold start to /readyz 200, interleaved ---------------------------------------------------
    const startTimes: DeployFigures['starts'] = {
      container: { up: [], ready: [] },
      npmStart: { up: [], ready: [] },
    };
    const coldStart = async (side: StartSide, timed: boolean) => {
      const port = await freePort();
      const t0 = performance.now();
      let up: number;
      let stop: () => Promise<unknown>;
      if (side === 'container') {
        const container = await runContainer(scratch, `${prefix}-${containers++}`, port);
        up = performance.now();
        stop = () => container.remove();
        await untilReady(container.url, container.alive).catch(async (error) => {
          await stop();
          throw error;
        });
      } else {
        const host = await startHostServer(port);
        up = performance.now();
        stop = () => host.stop();
        await untilReady(host.server.url, async () => {
          if (host.server.child.exitCode !== null) throw new Error(host.server.output());
        }).catch(async (error) => {
          await stop();
          throw error;
        });
      }
      const ready = performance.now();
      await stop();
      const elapsed = { up: up - t0, ready: ready - t0 };
      if (timed) {
        startTimes[side].up.push(elapsed.up);
        startTimes[side].ready.push(elapsed.ready);
      }
      log(
        `  [deploy] cold start${timed ? '' : ' (warm-up)'}, ${side}: up ${fmt(elapsed.up, 0)} ms, /readyz 200 ${fmt(elapsed.ready, 0)} ms`,
      );
    };
    for (const side of START_SIDES) await coldStart(side, false);
    for (let i = 0; i < starts; i++)
      for (const side of i % 2 ? [...START_SIDES].reverse() : START_SIDES) await coldStart(side, true);
    const loadAfterStarts = loadavg()[0]!;

    // ---- create → connected → first evaluate: direct, through nginx, on a container ------------
    const host = await startHostServer(await freePort(), { TRUST_PROXY: '1' });
    cleanups.push(() => host.stop());
    const direct = host.server.url;
    const front: NginxFront = await startNginxFront({
      upstreamPort: Number(new URL(direct).port),
      why: 'the deploy benchmark',
      log,
    });
    cleanups.push(() => front.stop());
    // Every TLS client here (fetch, Playwright's WebSocket) trusts the front's certificate.
    tls.setDefaultCACertificates([...defaultCas, front.certificatePem]);
    const container = await runContainer(scratch, `${prefix}-${containers++}`, await freePort());
    cleanups.push(() => container.remove());
    await untilReady(container.url, container.alive);

    const hostApi = await localSessionApi(direct);
    const containerApi = await localSessionApi(container.url);
    const ways: Record<DeployWay, { origin: string; handedOut: string; api: typeof hostApi }> = {
      direct: { origin: direct, handedOut: `ws://127.0.0.1:${new URL(direct).port}/`, api: hostApi },
      nginx: { origin: front.url, handedOut: `wss://127.0.0.1:${front.tlsPort}/`, api: hostApi },
      container: {
        origin: container.url,
        handedOut: `ws://127.0.0.1:${new URL(container.url).port}/`,
        api: containerApi,
      },
    };
    const times: Record<DeployWay, Timings[]> = { direct: [], nginx: [], container: [] };
    const round = async (way: DeployWay): Promise<Timings> => {
      const { origin, handedOut, api } = ways[way];
      await sleep(pauseMs);
      const t0 = performance.now();
      const session = await api.create(origin);
      const t1 = performance.now();
      try {
        if (!session.connectUrl.startsWith(handedOut))
          throw new Error(`${way}: connectUrl ${session.connectUrl} is not on ${handedOut}`);
        const { create, connect, evaluate, total } = await connectAndEvaluate(session.connectUrl, t0, t1);
        return { create, connect, evaluate, total };
      } finally {
        await api.release(session.id, origin);
      }
    };
    const warmUp: string[] = [];
    for (const way of WAYS) warmUp.push(`${way} ${fmt((await round(way)).total, 1)}`);
    log(`  [deploy] warm-up totals ms: ${warmUp.join(', ')}`);
    for (let i = 0; i < runs; i++) {
      const order = WAYS.map((_, k) => WAYS[(k + i) % WAYS.length]!);
      const line: string[] = [];
      for (const way of order) {
        const t = await round(way);
        times[way].push(t);
        line.push(`${way} ${fmt(t.total, 1)}`);
      }
      log(`  [deploy] round ${i + 1}/${runs} totals ms: ${line.join(', ')}`);
    }
    const version = promisify(execFile);
    const chromiumVersions = {
      host: (await version(HEADLESS_SHELL, ['--version'])).stdout.trim(),
      container: (await podman(['exec', container.name, HEADLESS_SHELL, '--version'])).trim(),
    };
    const isolation = {
      host: isolationOf(host.server.output()),
      container: isolationOf(await containerLogs(container.name)),
    };

    const sessions = Object.fromEntries(
      WAYS.map((way) => [
        way,
        Object.fromEntries(PHASES.map((phase) => [phase, quantiles(times[way].map((t) => t[phase]))])),
      ]),
    ) as DeployFigures['sessions'];
    const ratioOf = (way: 'nginx' | 'container') =>
      Object.fromEntries(
        PHASES.map((phase) => [phase, sessions[way][phase].p50 / sessions.direct[phase].p50]),
      ) as Record<DeployPhase, number>;
    const figures: DeployFigures = {
      image,
      starts: startTimes,
      sessions,
      ratio: { nginx: ratioOf('nginx'), container: ratioOf('container') },
      chromium: chromiumVersions,
      isolation,
      loads: { start: loadStart, afterStarts: loadAfterStarts, end: loadavg()[0]! },
    };
    return { figures, markdown: deployMarkdown(figures, options, started) };
  } finally {
    tls.setDefaultCACertificates(defaultCas);
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
    rmSync(scratch, { recursive: true, force: true });
  }
}

const MB = (bytes: number) => fmt(bytes / 1e6, bytes < 10e6 ? 1 : 0);

const PHASE_LABELS: Record<DeployPhase, string> = {
  create: 'create (`POST …/sessions` → connectUrl)',
  connect: '`chromium.connectOverCDP(connectUrl)`',
  evaluate: "first page + `page.evaluate('1 + 1')`",
  total: '**total: create → connected → first evaluate**',
};

function deployMarkdown(f: DeployFigures, o: DeployOptions, started: Date): string {
  const playwrightVersion = (
    JSON.parse(
      readFileSync(resolve(import.meta.dirname, '../node_modules/playwright-core/package.json'), 'utf8'),
    ) as { version: string }
  ).version;
  const { image, starts, sessions: s, ratio, loads } = f;
  const out = ['## 15. Deploy: the container image, its cold start, and nginx in front', ''];
  out.push(
    `Measured ${started.toISOString()} (bench/deploy.ts; BENCH_DEPLOY_STARTS=${o.starts} BENCH_DEPLOY_RUNS=${o.runs} BENCH_DEPLOY_PAUSE_MS=${o.pauseMs} BENCH_DEPLOY_BUILD=${o.build}); ${cpus().length} CPUs (${cpus()[0]?.model ?? 'unknown'}), ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM, Node ${process.version}, playwright-core ${playwrightVersion}; podman as test/podman.ts runs it (overlay, runc, cgroupfs); Chromium \`${HEADLESS_SHELL}\` on both sides: host \`${f.chromium.host}\`, container \`${f.chromium.container}\`; isolation \`${f.isolation.host}\` (host) and \`${f.isolation.container}\` (container). 1-min load average ${fmt(loads.start, 2)} at the start, ${fmt(loads.afterStarts, 2)} after the cold starts, ${fmt(loads.end, 2)} at the end (a load near the core count means the figures are depressed).`,
    '',
  );
  const appBytes = image.layers
    .filter((l) => l.label.startsWith('app:'))
    .reduce((sum, l) => sum + l.bytes, 0);
  out.push(
    `**The image.** \`${image.tag}\` (${image.id}, created ${image.created}${image.built ? ', built by this run from the checkout' : ', already there and not rebuilt: BENCH_DEPLOY_BUILD=always rebuilds it from the checkout'}), the repository's Dockerfile on \`${BASE_TAG}\` (deploy/debian-base.sh): **${MB(image.size)} MB** (\`podman image inspect --format {{.Size}}\`, decimal MB as podman prints them). The layers that hold bytes (\`podman history\`), bottom up:`,
    '',
  );
  out.push(
    table(
      ['layer', 'MB', 'share'],
      [
        ...image.layers.map((l) => [l.label, MB(l.bytes), `${fmt((l.bytes / image.size) * 100, 1)} %`]),
        ['app, all `COPY` layers into /app', MB(appBytes), `${fmt((appBytes / image.size) * 100, 1)} %`],
      ],
    ),
    '',
  );
  const startRow = (label: string, values: number[]) => [
    label,
    fmt(median(values), 0),
    fmt(Math.min(...values), 0),
    fmt(Math.max(...values), 0),
    values.map((v) => fmt(v, 0)).join(' / '),
  ];
  out.push(
    `**Cold start to \`/readyz\` 200.** Container: \`podman run -d\` (the image test's \`bubblewrap\` settings: ${BUBBLEWRAP_SETTINGS.filter((a) => a !== '--security-opt').join(' ')}; \`--network=host\`, HOST=127.0.0.1, a fresh bind-mounted volume each time) timed from the call; "up" is \`podman run -d\` returning (the container created and its tini started). \`npm start\`: \`node --conditions=source examples/server/src/main.ts\` as test/serverProcess.ts starts it, a fresh DATA_DIR each time, CHROMIUM_PATH=${HEADLESS_SHELL}; "up" is its "listening" log line. Then \`GET /readyz\` every ${READY_POLL_MS} ms until 200. Both with LOCAL_WARM_BROWSERS=${WARM_BROWSERS}, LOCAL_MAX_SESSIONS=${MAX_SESSIONS}. One untimed start per side first, then ${o.starts} per side, alternating and the order turning each time; each stopped (SIGTERM) and removed, untimed, before the next.`,
    '',
  );
  out.push(
    table(
      ['cold start (ms)', 'median', 'min', 'max', 'runs'],
      [
        startRow('container: `podman run -d` returned', starts.container.up),
        startRow('**container: `/readyz` 200**', starts.container.ready),
        startRow('`npm start`: "listening" logged', starts.npmStart.up),
        startRow('**`npm start`: `/readyz` 200**', starts.npmStart.ready),
      ],
    ),
    '',
  );
  const startRatio = median(starts.container.ready) / median(starts.npmStart.ready);
  out.push(
    `Container ÷ \`npm start\`, median to \`/readyz\` 200: ${fmt(startRatio, 2)}× (+${fmt(median(starts.container.ready) - median(starts.npmStart.ready), 0)} ms).`,
    '',
  );
  out.push(
    `**Create → connected → first evaluate.** Three ways in, one playwright-core: **direct** on an \`npm start\` server as above (TRUST_PROXY=1, so it can sit behind nginx; no PUBLIC_URL); **nginx**: the shipped deploy/nginx/browserdeck.conf (test/nginxFront.ts: only its marked lines rewritten to loopback ports and a fresh self-signed certificate) in front of that same server, over TLS, the connectUrl handed out as \`wss://\` on nginx; **container**: a container as above. One account per server (direct and nginx share the host server's). Each round: an untimed ${o.pauseMs}-ms pause (the warm browser the previous round took is replaced), \`POST /v1/local/projects/{id}/sessions\` with a sign-in token (fetch, keep-alive), \`chromium.connectOverCDP(connectUrl)\`, \`page.evaluate('1 + 1')\` in its first page; then, untimed, the disconnect and \`POST …:release\`. One untimed round per way, then ${o.runs} timed rounds per way, the three ways' order turning each round. Client-side wall time; p95 is the nearest rank.`,
    '',
  );
  const q = (way: DeployWay, phase: DeployPhase) =>
    `${fmt(s[way][phase].p50, 1)} / ${fmt(s[way][phase].p95, 1)}`;
  out.push(
    table(
      [
        'phase (p50 / p95 ms)',
        'direct (`npm start`)',
        'nginx (TLS) → same server',
        'container',
        'nginx ÷ direct (p50)',
        'container ÷ direct (p50)',
      ],
      PHASES.map((phase) => [
        PHASE_LABELS[phase],
        q('direct', phase),
        q('nginx', phase),
        q('container', phase),
        `${fmt(ratio.nginx[phase], 2)}×`,
        `${fmt(ratio.container[phase], 2)}×`,
      ]),
    ),
    '',
  );
  out.push(whereTheTimeGoes(f), '');
  return out.join('\n');
}

const SPLIT = ['create', 'connect', 'evaluate'] as const;
const NOISE_MS = 2;
const NOISE_SHARE = 0.15;

/** The "where the time goes" paragraph, from the figures: which phase carries each difference. */
function whereTheTimeGoes(f: DeployFigures): string {
  const { sessions: s, starts, image } = f;
  const ratio = (way: 'nginx' | 'container', phase: DeployPhase) => f.ratio[way][phase];
  const diff = (way: 'nginx' | 'container', phase: DeployPhase) => s[way][phase].p50 - s.direct[phase].p50;
  const signed = (ms: number) =>
    Math.abs(ms) < 0.05 ? '±0.0 ms' : `${ms > 0 ? '+' : '−'}${fmt(Math.abs(ms), 1)} ms`;
  const split = (way: 'nginx' | 'container') =>
    SPLIT.map((phase) => `${phase} ${signed(diff(way, phase))}`).join(', ');
  // A phase differs when its p50 moved by more than NOISE_MS and NOISE_SHARE of direct's p50.
  const differing = (way: 'nginx' | 'container') =>
    SPLIT.filter(
      (phase) => Math.abs(diff(way, phase)) > Math.max(NOISE_MS, NOISE_SHARE * s.direct[phase].p50),
    ).sort((a, b) => Math.abs(diff(way, b)) - Math.abs(diff(way, a)));
  const verdict = (way: 'nginx' | 'container', where: string) => {
    const phases = differing(way);
    return phases.length === 0
      ? `${where} no phase differs by more than ${NOISE_MS} ms or ${NOISE_SHARE * 100} % of direct's p50, within the spread of these runs`
      : `${where} what differs is **${phases.join('** and **')}** (${phases.map((phase) => `${signed(diff(way, phase))}, ${fmt(ratio(way, phase), 2)}×`).join('; ')})`;
  };
  const apt = image.layers.find((l) => l.label.startsWith('apt layer'));
  const containerStart = median(starts.container.ready);
  const containerUp = median(starts.container.up);
  const npmReady = median(starts.npmStart.ready);
  const npmUp = median(starts.npmStart.up);
  return [
    `**Where the time goes.** Against direct, at p50: nginx ${split('nginx')} (total ${signed(diff('nginx', 'total'))}); the container ${split('container')} (total ${signed(diff('container', 'total'))}; the p50 of the totals is not the sum of the phases' p50s). ${verdict('nginx', 'Through nginx')}; ${verdict('container', 'on the container')}.`,
    `Through nginx, a create is one more proxied hop over TLS (fetch pools its connection, but a way's rounds are seconds apart and an idle pooled socket may have closed in between, so some creates pay a TLS handshake too); connect is always a new TCP connection, a TLS handshake (ECDSA P-256) and the WebSocket upgrade proxied to the server, then Playwright's several CDP round trips, each crossing nginx both ways; the first evaluate is CDP messages only, through the already-open proxied WebSocket, which is why it barely moves.`,
    `The container runs the same server code and the same headless shell at the same isolation level, with \`--network=host\` (no NAT, no port proxy, the same loopback): what is left to differ is the image's own copies (the lockfile's Node, Debian's libraries at the image's versions, NODE_ENV=production), the container's settings (runc, its own PID namespace and cgroup, seccomp off as the bubblewrap level asks) and the overlay filesystem the image's files are read from (the data folder is the bind-mounted volume).`,
    `Cold, the container spends ${fmt(containerUp, 0)} ms in \`podman run -d\` alone (podman creating the container and its overlay mount, runc starting tini), then ${fmt(containerStart - containerUp, 0)} ms from there to \`/readyz\` 200 (node starting the server as \`npm start\` does: module loading under --conditions=source, a fresh SQLite database migrated, the local provider set up); \`npm start\` logs "listening" after ${fmt(npmUp, 0)} ms and answers \`/readyz\` ${fmt(npmReady - npmUp, 0)} ms later.`,
    apt
      ? `Of the image's ${MB(image.size)} MB, the apt layer is ${MB(apt.bytes)} MB (${fmt((apt.bytes / image.size) * 100, 0)} %): the headless shell with its shared libraries, chromedriver and the full Chromium that Debian's chromedriver package depends on, ffmpeg's codecs and the fonts; node and the app are what the repository adds.`
      : '',
  ]
    .filter(Boolean)
    .join(' ');
}
