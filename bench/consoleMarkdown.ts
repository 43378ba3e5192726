import { cpus, totalmem } from 'node:os';
import { CONSOLE_FIRST_LIST_TARGET_MS, type ConsoleFigures, type LoadFigures } from './consoleFigures.ts';
import { fmt, table } from './stats.ts';

const kb = (bytes: number) => `${fmt(bytes / 1000, 1)} KB`;
const verdict = (ok: boolean) => (ok ? '**pass**' : '**MISS**');

/** Section 9 of docs/benchmarks.md from a run of bench/console.ts. */
export function consoleMarkdown(input: {
  figures: ConsoleFigures;
  loads: number;
  warmUp: number;
  started: Date;
  loadAvg: [number, number];
}): string {
  const { figures, loads, warmUp, started, loadAvg } = input;
  const { size, cached, uncached } = figures;
  const out = ['## 9. Console', ''];
  out.push(
    `Measured ${started.toISOString()} (bench/console.ts; BENCH_CONSOLE_LOADS=${loads}); ${cpus().length} CPUs, ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM, Node ${process.version}; 1-min load ${fmt(loadAvg[0], 2)} before, ${fmt(loadAvg[1], 2)} after. The server runs in its own process, started as \`npm start\` starts it (SQLite, one warm browser); the browser is the project's Chromium under playwright-core, 1280×800, on the same machine.`,
    '',
  );
  out.push(
    `**Size**: every JavaScript and CSS file of the build (\`packages/console/dist\`), gzipped at level 9 as \`npm run size -w @browserdeck/console\` counts them. "First screen" marks the files a browser with an empty cache fetched to show a project's sessions list; the chart (uPlot) and the code editor load when first shown.`,
    '',
  );
  out.push(
    table(
      ['file', 'raw', 'gzipped', 'first screen'],
      [
        ...size.files.map((f) => [`\`${f.file}\``, kb(f.raw), kb(f.gzip), f.firstScreen ? 'yes' : '']),
        ['**all JavaScript and CSS**', '', `**${kb(size.totalGzip)}**`, ''],
        ['**first screen**', '', `**${kb(size.firstScreenGzip)}**`, ''],
      ],
    ),
    '',
  );
  out.push(
    `Target: at most ${kb(size.budgetBytes)} gzipped in all: ${verdict(size.totalGzip <= size.budgetBytes)} (${kb(size.totalGzip)}, ${fmt((size.totalGzip / size.budgetBytes) * 100, 0)} % of the budget).`,
    '',
  );
  out.push(
    `**Time to the first rendered list**: a signed-in person (the refresh token a first sign-in in the same browser context left in \`localStorage\`) loads a project's sessions list (\`/console/projects/{id}/sessions\`, ${figures.sessions} sessions stored, created and released over HTTP). ${loads} timed page loads (\`reload\`) per side after ${warmUp} untimed, the sides alternating: **cached**, the browser's cache as a returning person has it (the hashed assets are \`immutable\`: only the page is asked for again), and **uncached** (\`Network.setCacheDisabled\`: every file downloaded, over loopback). Times are from navigation start, in the page: the first row is recorded by a MutationObserver installed with \`page.addInitScript\` before the console's script runs; the rest comes from the navigation and resource timing entries. On each load the console first trades the stored refresh token for an access token (\`POST /v1/auth/refresh\`), then asks for what the screen shows: the project, the list (\`…/sessions?limit=20&offset=0\`) and the agents the start form offers. Each request is listed by its path (ids as \`{id}\`).`,
    '',
  );
  const row = (name: string, get: (f: LoadFigures) => { p50: number; p95: number }) => [
    name,
    `${fmt(get(cached).p50, 1)} / ${fmt(get(cached).p95, 1)}`,
    `${fmt(get(uncached).p50, 1)} / ${fmt(get(uncached).p95, 1)}`,
  ];
  out.push(
    table(
      ['milestone (ms from navigation start)', 'cached p50 / p95', 'uncached p50 / p95'],
      [
        row('the page (HTML) received', (f) => f.html),
        row("the app's script received", (f) => f.script),
        row('DOMContentLoaded done (the module script has run)', (f) => f.domContentLoaded),
        ...cached.requests.flatMap(({ request }) => {
          const of = (f: LoadFigures) => f.requests.find((r) => r.request === request);
          const cell = (f: LoadFigures, at: 'sent' | 'answered') => {
            const found = of(f);
            return found ? `${fmt(found[at].p50, 1)} / ${fmt(found[at].p95, 1)}` : '—';
          };
          return [
            [`\`${request}\` sent`, cell(cached, 'sent'), cell(uncached, 'sent')],
            ['… answered', cell(cached, 'answered'), cell(uncached, 'answered')],
          ];
        }),
        row('**first row of the list rendered**', (f) => f.firstRow),
      ],
    ),
    '',
  );
  out.push(
    `JavaScript and CSS over the wire per load (median \`transferSize\`, headers included): ${kb(cached.assetBytes)} cached, ${kb(uncached.assetBytes)} uncached.`,
    '',
  );
  out.push(`${whereTheTimeGoes(cached)}`, '');
  const worst = Math.max(cached.firstRow.p50, uncached.firstRow.p50);
  out.push(
    `Target: the first rendered list within ${CONSOLE_FIRST_LIST_TARGET_MS} ms p50 from navigation: ${verdict(worst <= CONSOLE_FIRST_LIST_TARGET_MS)} (${fmt(cached.firstRow.p50, 0)} ms cached, ${fmt(uncached.firstRow.p50, 0)} ms uncached).`,
    '',
  );
  return out.join('\n');
}

/** The cached side's p50 milestones as a chain of steps (differences of p50s, so roughly). */
function whereTheTimeGoes(f: LoadFigures): string {
  const find = (pattern: RegExp) => f.requests.find((r) => pattern.test(r.request));
  const refresh = find(/^\/v1\/auth\/refresh$/);
  const project = find(/^\/v1\/projects\/\{id\}$/);
  const list = find(/\/sessions\?/);
  if (!refresh || !project || !list) return '';
  const ms = (value: number) => `${fmt(value, 0)} ms`;
  return `Where the time goes (cached, differences of the p50s above): ${ms(f.domContentLoaded.p50)} until the app runs (the page, its script from the cache, parsing); ${ms(refresh.answered.p50 - f.domContentLoaded.p50)} for the refresh (its round trip ${ms(refresh.answered.p50 - refresh.sent.p50)}: a token rotation, written to the database); ${ms(project.answered.p50 - refresh.answered.p50)} for the project, which the project's screens load before they render their tab, so the list is asked for only after it (${ms(list.sent.p50 - project.answered.p50)} from the project's answer to the list's request, the tab's first render); ${ms(list.answered.p50 - list.sent.p50)} for the list's round trip; ${ms(f.firstRow.p50 - list.answered.p50)} to render the rows. The three requests in a row (refresh, project, list) take ${ms(refresh.answered.p50 - refresh.sent.p50 + (project.answered.p50 - project.sent.p50) + (list.answered.p50 - list.sent.p50))} of their round trips together on loopback; over a network each adds a round-trip time, so there the first list comes about three round trips after the app starts.`;
}
