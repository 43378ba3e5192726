/**
 * Part 3 of the `instances` scenario: the Selenium Grid provider against the Grid itself. A real
 * Grid 4 (hub + nodes, `@browserdeck/testing/selenium-grid`) and two servers with
 * BROWSER_PROVIDER=selenium-grid on one PostgreSQL database:
 *
 * - create → connected → first evaluate through Browserdeck, against the same flow straight on the
 *   Grid (W3C `POST /session` with the provider's own capabilities → playwright-core on the answer's
 *   `se:cdp` → first evaluate), interleaved;
 * - sessions created per second: create+release loops from concurrent clients, straight on the Grid,
 *   through 1 instance, then spread over 2.
 */
import { performance } from 'node:perf_hooks';
import { type SeleniumGrid, startSeleniumGrid } from '@browserdeck/testing/selenium-grid';
import { type Browser, chromium } from 'playwright-core';
import { GridClient } from '../packages/adapters/src/browsers/selenium-grid/GridClient.ts';
import { gridCdpUrl } from '../packages/adapters/src/browsers/selenium-grid/gridCdpUrl.ts';
import { newSessionCapabilities } from '../packages/adapters/src/browsers/selenium-grid/newSessionCapabilities.ts';
import { createDatabase, dropDatabase, startPostgresServer } from '../test/postgresServer.ts';
import { type ApiServer, call, newUser, startApiServer } from './api.ts';
import {
  type FlowTimings,
  type GridFigures,
  type InstancesOptions,
  quantiles,
  type RatePhase,
} from './instancesFigures.ts';
import { instanceEnv, sharedKeys } from './instancesForwarding.ts';
import { fmt, median } from './stats.ts';

const WARM_UP = 2;
const NEW_SESSION_TIMEOUT_MS = 60_000;

/** The first page of a just-connected browser, and `1 + 1` evaluated in it. */
async function firstEvaluate(browser: Browser): Promise<void> {
  const context = browser.contexts()[0] ?? (await browser.newContext());
  const page = context.pages()[0] ?? (await context.newPage());
  const value = await page.evaluate('1 + 1');
  if (value !== 2) throw new Error(`page.evaluate answered ${JSON.stringify(value)}`);
}

/** A flow's timings from its marks: start, created, connected, evaluated. */
const flow = (t0: number, t1: number, t2: number, t3: number): FlowTimings => ({
  create: t1 - t0,
  connect: t2 - t1,
  evaluate: t3 - t2,
  total: t3 - t0,
});

/** One account's sessions on one instance: create, release. */
async function accountOn(server: ApiServer) {
  const token = await newUser(server.url);
  const project = await call<{ id: string }>(server.url, 'POST', '/v1/projects', {
    token,
    body: { name: 'Grid bench' },
    expect: 201,
  });
  const base = `/v1/selenium-grid/projects/${project.id}/sessions`;
  return {
    create: () =>
      call<{ id: string; connectUrl: string }>(server.url, 'POST', base, { token, body: {}, expect: 201 }),
    release: (id: string) => call(server.url, 'POST', `${base}/${id}:release`, { token, body: {} }),
  };
}
type Account = Awaited<ReturnType<typeof accountOn>>;

/** `clients` loops of `cycle` (a create and its release) for `seconds`; then the rate and the latencies. */
async function ratePhase(
  label: string,
  instances: number,
  clients: number,
  seconds: number,
  cycle: (client: number) => Promise<{ create: number; release: number }>,
): Promise<RatePhase> {
  const creates: number[] = [];
  const releases: number[] = [];
  const failures: string[] = [];
  const t0 = performance.now();
  const deadline = t0 + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      while (performance.now() < deadline) {
        try {
          const t = await cycle(client);
          creates.push(t.create);
          releases.push(t.release);
        } catch (error) {
          failures.push(error instanceof Error ? error.message.slice(0, 300) : String(error));
        }
      }
    }),
  );
  const elapsed = (performance.now() - t0) / 1000;
  return {
    label,
    instances,
    clients,
    seconds: elapsed,
    created: creates.length,
    perSec: creates.length / elapsed,
    create: quantiles(creates),
    release: quantiles(releases),
    failures,
  };
}

export async function measureGrid(options: InstancesOptions): Promise<GridFigures> {
  const { log } = options;
  let grid: SeleniumGrid | undefined;
  const pg = await startPostgresServer();
  const dbName = `bench_instances_grid_${process.pid}`;
  const servers: ApiServer[] = [];
  try {
    grid = await startSeleniumGrid({
      topology: 'hub-and-nodes',
      nodes: 2,
      maxSessionsPerNode: options.slotsPerNode,
      sessionRequestTimeoutSec: 60,
    });
    const p = grid.prerequisites;
    log(
      `  [instances] Grid ${grid.url}: ${grid.nodes.length} nodes × ${options.slotsPerNode} slots; ${p.jarVersion}, Java ${p.javaVersion}, ${p.chromium} ${p.browserVersion}`,
    );
    const databaseUrl = await createDatabase(pg.adminUrl, dbName);
    const { secretKey, jwtKey } = sharedKeys();
    const env = (i: number) =>
      instanceEnv(databaseUrl, secretKey, jwtKey, `grid-${'ab'[i]}`, {
        BROWSER_PROVIDER: 'selenium-grid',
        SELENIUM_GRID_URL: grid!.url,
      });
    const a = await startApiServer(env(0));
    servers.push(a);
    const b = await startApiServer(env(1));
    servers.push(b);

    // Create → connected → first evaluate, Grid direct against Browserdeck, interleaved.
    const client = new GridClient({ gridUrl: grid.url, requestTimeoutMs: 30_000 });
    let n = 0;
    const direct = async (): Promise<FlowTimings> => {
      const t0 = performance.now();
      const created = await client.newSession(
        newSessionCapabilities({ sessionId: `bench-${++n}`, viewport: null }, {}),
        NEW_SESSION_TIMEOUT_MS,
      );
      const t1 = performance.now();
      try {
        const cdpUrl = gridCdpUrl(client.baseUrl, created.sessionId, created.capabilities['se:cdp']);
        if (!cdpUrl) throw new Error(`the Grid answered no se:cdp: ${JSON.stringify(created.capabilities)}`);
        const browser = await chromium.connectOverCDP(cdpUrl);
        const t2 = performance.now();
        await firstEvaluate(browser);
        const t3 = performance.now();
        await browser.close();
        return flow(t0, t1, t2, t3);
      } finally {
        await client.deleteSession(created.sessionId);
      }
    };
    const flowAccount = await accountOn(a);
    const browserdeck = async (): Promise<FlowTimings> => {
      const t0 = performance.now();
      const session = await flowAccount.create();
      const t1 = performance.now();
      try {
        const browser = await chromium.connectOverCDP(session.connectUrl);
        const t2 = performance.now();
        await firstEvaluate(browser);
        const t3 = performance.now();
        await browser.close();
        return flow(t0, t1, t2, t3);
      } finally {
        await flowAccount.release(session.id);
      }
    };
    const figures: GridFigures = {
      grid: {
        topology: 'hub and 2 nodes',
        nodes: grid.nodes.length,
        slotsPerNode: options.slotsPerNode,
        java: String(p.javaVersion),
        chromedriver: p.chromedriver,
        chromium: `${p.chromium} ${p.browserVersion}`,
      },
      direct: [],
      browserdeck: [],
      rates: [],
      skipped: null,
    };
    for (let i = 0; i < WARM_UP; i++) {
      await direct();
      await browserdeck();
    }
    for (let i = 0; i < options.gridRuns; i++) {
      const order = i % 2 === 0 ? (['direct', 'browserdeck'] as const) : (['browserdeck', 'direct'] as const);
      for (const side of order) figures[side].push(await (side === 'direct' ? direct() : browserdeck()));
    }
    const p50 = (list: FlowTimings[], pick: (t: FlowTimings) => number) => fmt(median(list.map(pick)), 1);
    log(
      `  [instances] Grid flow p50 ms: direct new session ${p50(figures.direct, (t) => t.create)} / total ${p50(figures.direct, (t) => t.total)}; Browserdeck create ${p50(figures.browserdeck, (t) => t.create)} / total ${p50(figures.browserdeck, (t) => t.total)}`,
    );

    // Sessions per second: create+release loops, straight on the Grid, 1 instance, 2 instances.
    const { rateClients: clients, rateSec: seconds } = options;
    const timed = async (create: () => Promise<string>, release: (id: string) => Promise<unknown>) => {
      const t0 = performance.now();
      const id = await create();
      const t1 = performance.now();
      await release(id);
      return { create: t1 - t0, release: performance.now() - t1 };
    };
    const capabilities = newSessionCapabilities({ sessionId: 'bench-rate', viewport: null }, {});
    figures.rates.push(
      await ratePhase('grid', 0, clients, seconds, () =>
        timed(
          async () => (await client.newSession(capabilities, NEW_SESSION_TIMEOUT_MS)).sessionId,
          (id) => client.deleteSession(id),
        ),
      ),
    );
    // One account per client: no per-account limit gets in the way.
    const accounts: Account[][] = [[], []];
    for (let i = 0; i < clients; i++) {
      accounts[0]!.push(await accountOn(a));
      accounts[1]!.push(await accountOn(i % 2 === 0 ? a : b));
    }
    for (const instances of [1, 2] as const) {
      const list = accounts[instances - 1]!;
      figures.rates.push(
        await ratePhase(
          `${instances} instance${instances === 1 ? '' : 's'}`,
          instances,
          clients,
          seconds,
          (i) =>
            timed(
              async () => (await list[i]!.create()).id,
              (id) => list[i]!.release(id),
            ),
        ),
      );
    }
    for (const r of figures.rates)
      log(
        `  [instances] rate, ${r.label}: ${r.created} sessions in ${fmt(r.seconds, 1)} s = ${fmt(r.perSec, 2)}/s (create p50 ${fmt(r.create.p50, 0)} ms), failures ${r.failures.length}`,
      );
    return figures;
  } catch (error) {
    if (grid) log(grid.logTail(20));
    throw error;
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    await grid?.close();
    await dropDatabase(pg.adminUrl, dbName).catch(() => {});
    await pg.stop();
  }
}
