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

import { once } from 'node:events';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  GRID_CHROMIUM_CANDIDATES,
  type SeleniumGrid,
  startSeleniumGrid,
} from '@browserdeck/testing/selenium-grid';
import { type Browser, chromium } from 'playwright-core';
import WebSocket from 'ws';
import { GridClient } from '../packages/adapters/src/browsers/selenium-grid/GridClient.ts';
import { gridCdpUrl } from '../packages/adapters/src/browsers/selenium-grid/gridCdpUrl.ts';
import { newSessionCapabilities } from '../packages/adapters/src/browsers/selenium-grid/newSessionCapabilities.ts';
import { createDatabase, dropDatabase, startPostgresServer } from '../test/postgresServer.ts';
import { type ApiServer, startApiServer } from './api.ts';
import type { FlowTimings, GridFigures, InstancesOptions } from './instancesFigures.ts';
import { instanceEnv, sharedKeys } from './instancesForwarding.ts';
import {
  type GridAccount,
  gridAccountOn,
  gridCpuSeconds,
  gridIdle,
  gridQueueSize,
  type RateTarget,
  ratePhase,
  timedCycle,
} from './instancesRate.ts';
import { fmt, median } from './stats.ts';

const WARM_UP = 2;
const NEW_SESSION_TIMEOUT_MS = 60_000;

/**
 * As root, Chromium refuses to start without `--no-sandbox`, and nothing in `npm start`'s
 * configuration adds Chrome arguments to a Grid session: the nodes get a browser that adds it
 * itself (a script that `exec`s the binary, so it ends with its session). Other users: the binary.
 */
function nodeBrowser(dir: string): string | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const binary = GRID_CHROMIUM_CANDIDATES.find((path) => existsSync(path));
  if (!binary) return undefined;
  const script = join(dir, 'chromium-no-sandbox');
  writeFileSync(script, `#!/bin/sh\nexec ${JSON.stringify(binary)} --no-sandbox "$@"\n`);
  chmodSync(script, 0o755);
  return script;
}

/** The first page of a just-connected browser, and `1 + 1` evaluated in it. */
async function firstEvaluate(browser: Browser): Promise<void> {
  const context = browser.contexts()[0] ?? (await browser.newContext());
  const page = context.pages()[0] ?? (await context.newPage());
  const value = await page.evaluate('1 + 1');
  if (value !== 2) throw new Error(`page.evaluate answered ${JSON.stringify(value)}`);
}

/** A WebSocket handshake to `url` (upgrade → open), closed at once (ms). */
async function handshake(url: string): Promise<number> {
  const t0 = performance.now();
  const ws = new WebSocket(url, { perMessageDeflate: false });
  await once(ws, 'open');
  const ms = performance.now() - t0;
  const closed = once(ws, 'close');
  ws.close();
  await closed;
  return ms;
}

/** A flow's timings from its marks: start, created, connected, evaluated. */
const flow = (t0: number, t1: number, t2: number, t3: number): FlowTimings => ({
  create: t1 - t0,
  connect: t2 - t1,
  evaluate: t3 - t2,
  total: t3 - t0,
});

export async function measureGrid(options: InstancesOptions): Promise<GridFigures> {
  const { log } = options;
  let grid: SeleniumGrid | undefined;
  const pg = await startPostgresServer();
  const dbName = `bench_instances_grid_${process.pid}`;
  const servers: ApiServer[] = [];
  const wrapperDir = mkdtempSync(join(tmpdir(), 'browserdeck-bench-grid-'));
  try {
    const chromiumPath = nodeBrowser(wrapperDir);
    grid = await startSeleniumGrid({
      ...(chromiumPath ? { chromiumPath } : {}),
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
    const seCdpHandshakes: number[] = [];
    const seCdpUnderLoad: number[] = [];
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
        // Untimed for the flow: one more WebSocket handshake to se:cdp, what the provider's log
        // recorder opens before its create answers.
        seCdpHandshakes.push(await handshake(cdpUrl));
        await browser.close();
        return flow(t0, t1, t2, t3);
      } finally {
        await client.deleteSession(created.sessionId);
      }
    };
    const flowAccount = await gridAccountOn(a);
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
        noSandboxScript: chromiumPath !== undefined,
      },
      direct: [],
      browserdeck: [],
      seCdpHandshakes,
      seCdpUnderLoad,
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
    const { url, dir } = grid;
    const target: RateTarget = {
      pids: [a.child.pid!, b.child.pid!],
      idle: () => gridIdle(url),
      gridCpuSeconds: () => gridCpuSeconds(dir),
      queued: () => gridQueueSize(url),
    };
    const capabilities = newSessionCapabilities({ sessionId: 'bench-rate', viewport: null }, {});
    figures.rates.push(
      await ratePhase('grid', 0, clients, seconds, target, () =>
        timedCycle(
          async () => (await client.newSession(capabilities, NEW_SESSION_TIMEOUT_MS)).sessionId,
          (id) => client.deleteSession(id),
        ),
      ),
    );
    // The same, not waiting for the delete (as a Browserdeck release does not): does the Grid
    // start the next session as fast while it stops the last one?
    const deletes: Promise<unknown>[] = [];
    figures.rates.push(
      await ratePhase('grid, delete not awaited', 0, clients, seconds, target, () =>
        timedCycle(
          async () => (await client.newSession(capabilities, NEW_SESSION_TIMEOUT_MS)).sessionId,
          async (id) => void deletes.push(client.deleteSession(id).catch(() => false)),
        ),
      ),
    );
    // And as the provider does it: the new session, then a WebSocket to its se:cdp opened before the
    // create counts as done (the log recorder's), closed at the release, the delete not awaited.
    figures.rates.push(
      await ratePhase('grid, se:cdp opened, delete not awaited', 0, clients, seconds, target, () => {
        let socket: WebSocket | undefined;
        return timedCycle(
          async () => {
            const created = await client.newSession(capabilities, NEW_SESSION_TIMEOUT_MS);
            const cdpUrl = gridCdpUrl(client.baseUrl, created.sessionId, created.capabilities['se:cdp']);
            if (!cdpUrl) throw new Error('the Grid answered no se:cdp');
            const opening = performance.now();
            socket = new WebSocket(cdpUrl, { perMessageDeflate: false });
            await once(socket, 'open');
            seCdpUnderLoad.push(performance.now() - opening);
            return created.sessionId;
          },
          async (id) => {
            socket?.close();
            deletes.push(client.deleteSession(id).catch(() => false));
          },
        );
      }),
    );
    await Promise.all(deletes);
    // One account per client: no per-account limit gets in the way.
    const accounts: GridAccount[][] = [[], []];
    for (let i = 0; i < clients; i++) {
      accounts[0]!.push(await gridAccountOn(a));
      accounts[1]!.push(await gridAccountOn(i % 2 === 0 ? a : b));
    }
    for (const instances of [1, 2] as const) {
      const list = accounts[instances - 1]!;
      figures.rates.push(
        await ratePhase(
          `${instances} instance${instances === 1 ? '' : 's'}`,
          instances,
          clients,
          seconds,
          target,
          (i) =>
            timedCycle(
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
    rmSync(wrapperDir, { recursive: true, force: true });
  }
}
