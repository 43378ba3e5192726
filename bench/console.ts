/**
 * Scenario `console`: what the web console costs a person (issue 17, http-api.md §14).
 *
 * (a) Size: the console's JavaScript and CSS gzipped (level 9), all of it and what the first screen
 * loads: the files a browser fetched to show a project's sessions list with an empty cache.
 * (b) Time to the first rendered list: a signed-in person (the refresh token a first sign-in left in
 * `localStorage`) loads a project's sessions list, 20 sessions stored, again and again, each a fresh
 * page load (`reload`), alternately with the browser's cache (the hashed assets are immutable, so a
 * returning person's browser asks only for the page) and without it (`Network.setCacheDisabled`: a
 * first visit's downloads, over loopback). Measured in the page from navigation start: the time of
 * the first row of the list, recorded by a MutationObserver that `page.addInitScript` installs before
 * the console's own script runs (the page's CSP does not apply to it); and where the time goes, from
 * the navigation and resource timing entries.
 */
import { execFile } from 'node:child_process';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { apiSignUp, startAndReleaseSessions } from '../test/consoleApi.ts';
import { openConsoleBrowser } from '../test/consoleBrowser.ts';
import { newCredentials, signIn, startConsoleServer } from '../test/consoleFlows.ts';
import type { ConsoleFigures, LoadFigures, Spread } from './consoleFigures.ts';
import { consoleMarkdown } from './consoleMarkdown.ts';
import { median, percentile } from './stats.ts';

export interface ConsoleBenchOptions {
  /** Timed page loads per side (cached, uncached), after WARM_UP_LOADS untimed. */
  loads: number;
  log: (line: string) => void;
}

/** Untimed page loads per side before the timed ones. */
export const WARM_UP_LOADS = 3;
const SESSIONS = 20;

/** The build's sizes and budget, as the console's own `npm run size` measures them. */
interface MeasuredBuild {
  budgetBytes: number;
  totalGzip: number;
  files: Array<{ file: string; raw: number; gzip: number }>;
}

/** Runs `npm run size -w @browserdeck/console -- --json` (it exits 1 over budget: read it anyway). */
async function measureBuild(): Promise<MeasuredBuild> {
  const args = ['run', '--silent', 'size', '-w', '@browserdeck/console', '--', '--json'];
  const cwd = resolve(import.meta.dirname, '..');
  const { stdout } = await promisify(execFile)('npm', args, { cwd }).catch((error: { stdout?: string }) => ({
    stdout: error.stdout ?? '',
  }));
  if (!stdout.trim())
    throw new Error('npm run size -w @browserdeck/console printed nothing: is the console built?');
  return JSON.parse(stdout) as MeasuredBuild;
}

/**
 * Installed before every document: resolves `window.__firstRow` with `performance.now()` (ms since
 * navigation start) when the sessions table has its first row.
 */
const FIRST_ROW_PROBE = `window.__firstRow = new Promise((resolve) => {
  const seen = () => document.querySelector('table.sessions tbody tr') !== null;
  const observer = new MutationObserver(() => {
    if (seen()) { observer.disconnect(); resolve(performance.now()); }
  });
  observer.observe(document, { childList: true, subtree: true });
});`;

/** What one load reports from the page. */
interface LoadSample {
  firstRow: number;
  navigation: { responseEnd: number; domContentLoadedEventEnd: number };
  resources: Array<{ name: string; startTime: number; responseEnd: number; transferSize: number }>;
}

const READ_SAMPLE = `(async () => ({
  firstRow: await window.__firstRow,
  navigation: performance.getEntriesByType('navigation')[0].toJSON(),
  resources: performance.getEntriesByType('resource').map((e) => ({
    name: e.name, startTime: e.startTime, responseEnd: e.responseEnd, transferSize: e.transferSize,
  })),
}))()`;

/** The load's figures, once its list has a row; fails after 20 s saying what the page shows instead. */
async function readSample(page: Page): Promise<LoadSample> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, fail) => {
    timer = setTimeout(async () => {
      const heading = await page
        .getByRole('heading', { level: 1 })
        .first()
        .textContent()
        .catch(() => '?');
      fail(new Error(`no list row after 20 s at ${page.url()} (its heading: ${heading})`));
    }, 20_000);
  });
  try {
    return (await Promise.race([page.evaluate(READ_SAMPLE), late])) as LoadSample;
  } finally {
    clearTimeout(timer);
  }
}

const spread = (values: number[]): Spread => ({ p50: median(values), p95: percentile(values, 95) });

/** A request's path and query with ids as `{id}`, e.g. `/v1/projects/{id}`. */
const requestOf = (url: string) => {
  const { pathname, search } = new URL(url);
  return (pathname + search).replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '{id}');
};

function figuresOf(samples: LoadSample[]): LoadFigures {
  const pick = (get: (sample: LoadSample) => number) => spread(samples.map(get));
  const script = /\/console\/assets\/index-[^/]+\.js$/;
  const api = (sample: LoadSample) =>
    sample.resources.filter((r) => new URL(r.name).pathname.startsWith('/v1/'));
  const names = [...new Set(samples.flatMap((s) => api(s).map((r) => requestOf(r.name))))];
  const requests = names
    .map((request) => {
      const seen = samples.flatMap((s) =>
        api(s)
          .filter((r) => requestOf(r.name) === request)
          .slice(0, 1),
      );
      return {
        request,
        sent: spread(seen.map((r) => r.startTime)),
        answered: spread(seen.map((r) => r.responseEnd)),
      };
    })
    .sort((a, b) => a.sent.p50 - b.sent.p50);
  return {
    loads: samples.length,
    firstRow: pick((s) => s.firstRow),
    html: pick((s) => s.navigation.responseEnd),
    script: pick((s) => {
      const found = s.resources.find((r) => script.test(new URL(r.name).pathname));
      if (!found) throw new Error("a load without the app's script");
      return found.responseEnd;
    }),
    domContentLoaded: pick((s) => s.navigation.domContentLoadedEventEnd),
    requests,
    assetBytes: median(
      samples.map((s) =>
        s.resources.filter((r) => /\.(js|css)$/.test(r.name)).reduce((sum, r) => sum + r.transferSize, 0),
      ),
    ),
  };
}

/** The figures, and section 9 of docs/benchmarks.md. */
export interface ConsoleBenchResult {
  figures: ConsoleFigures;
  markdown: string;
}

export async function runConsoleBench(options: ConsoleBenchOptions): Promise<ConsoleBenchResult> {
  const { log } = options;
  const started = new Date();
  const loadBefore = loadavg()[0]!;
  const built = await measureBuild();
  const server = await startConsoleServer();
  const browser = await openConsoleBrowser({ width: 1280, height: 800 });
  try {
    const who = newCredentials('bench');
    const call = await apiSignUp(server.url, who);
    const [project] = await call<Array<{ id: string }>>('GET', '/v1/projects');
    if (!project) throw new Error('the new user has no project');
    await startAndReleaseSessions(call, project.id, SESSIONS);
    log(`  [console] ${SESSIONS} sessions stored; signing in once in the browser`);

    const { page, context, problems } = browser;
    await signIn(page, server.url, who);
    await page.addInitScript({ content: FIRST_ROW_PROBE });
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await page.goto(`${server.url}/console/projects/${project.id}/sessions`);
    // Never reload while the console's refresh is in flight: the rotated token would be lost with the
    // page, and presenting the old one again ends the whole sign-in (reuse detection, http-api.md §3).
    await readSample(page);

    const samples: Record<'cached' | 'uncached', LoadSample[]> = { cached: [], uncached: [] };
    const firstScreenFiles = new Set<string>();
    for (let i = -WARM_UP_LOADS; i < options.loads; i++) {
      // Alternate the sides, the order turning each round, so a busy moment hits both alike.
      const order = i % 2 === 0 ? (['cached', 'uncached'] as const) : (['uncached', 'cached'] as const);
      for (const side of order) {
        await cdp.send('Network.setCacheDisabled', { cacheDisabled: side === 'uncached' });
        await page.reload();
        const sample = await readSample(page);
        if (side === 'uncached') {
          for (const r of sample.resources) {
            const path = new URL(r.name).pathname;
            if (/\/console\/assets\/[^/]+\.(js|css)$/.test(path))
              firstScreenFiles.add(path.replace(/^.*\/console\//, ''));
          }
        }
        if (i >= 0) samples[side].push(sample);
      }
    }
    const seen = problems();
    if (seen.length > 0) throw new Error(`the browser reported problems:\n${seen.join('\n')}`);

    const files = built.files.map((f) => ({ ...f, firstScreen: firstScreenFiles.has(f.file) }));
    const figures: ConsoleFigures = {
      size: {
        budgetBytes: built.budgetBytes,
        totalGzip: built.totalGzip,
        firstScreenGzip: files.filter((f) => f.firstScreen).reduce((sum, f) => sum + f.gzip, 0),
        files,
      },
      cached: figuresOf(samples.cached),
      uncached: figuresOf(samples.uncached),
      sessions: SESSIONS,
    };
    const loadAfter = loadavg()[0]!;
    log(
      `  [console] ${(figures.size.totalGzip / 1000).toFixed(1)} KB gzipped (first screen ${(figures.size.firstScreenGzip / 1000).toFixed(1)} KB); first row p50 ${figures.cached.firstRow.p50.toFixed(0)} ms cached, ${figures.uncached.firstRow.p50.toFixed(0)} ms uncached`,
    );
    return {
      figures,
      markdown: consoleMarkdown({
        figures,
        loads: options.loads,
        warmUp: WARM_UP_LOADS,
        started,
        loadAvg: [loadBefore, loadAfter],
      }),
    };
  } finally {
    await browser.close();
    await server.stop();
  }
}
