/**
 * Part 3c of the `instances` scenario: sessions created per second through 1 and 2 instances with
 * the Selenium Grid provider against a zero-latency Grid stand-in (bench/gridStandIn.ts, no
 * browsers), so what is measured is Browserdeck's own cost per session and whether a second instance
 * adds to the rate, apart from a Grid that on one small host is the limit itself.
 */
import { resolve } from 'node:path';
import { freePort } from '../test/freePort.ts';
import { createDatabase, dropDatabase, startPostgresServer } from '../test/postgresServer.ts';
import { type ApiServer, startApiServer } from './api.ts';
import { type Child, startChild } from './childProcess.ts';
import type { InstancesOptions, RatePhase } from './instancesFigures.ts';
import { instanceEnv, sharedKeys } from './instancesForwarding.ts';
import { type GridAccount, gridAccountOn, type RateTarget, ratePhase, timedCycle } from './instancesRate.ts';
import { cpuSeconds } from './rssSampler.ts';
import { fmt } from './stats.ts';

/** Untimed create+release loops on both instances first: their code compiled, their pools open. */
const WARM_UP_SEC = 5;

export async function measureStandInRate(options: InstancesOptions): Promise<RatePhase[]> {
  const { log, standInClients: clients, rateSec: seconds } = options;
  const pg = await startPostgresServer();
  const dbName = `bench_instances_standin_${process.pid}`;
  const servers: ApiServer[] = [];
  let standIn: Child | undefined;
  try {
    standIn = await startChild({
      script: resolve(import.meta.dirname, 'gridStandIn.ts'),
      env: {},
      port: await freePort(),
      readyPath: '/status',
    });
    const databaseUrl = await createDatabase(pg.adminUrl, dbName);
    const { secretKey, jwtKey } = sharedKeys();
    for (const id of ['standin-a', 'standin-b'])
      servers.push(
        await startApiServer(
          instanceEnv(databaseUrl, secretKey, jwtKey, id, {
            BROWSER_PROVIDER: 'selenium-grid',
            SELENIUM_GRID_URL: standIn.url,
          }),
        ),
      );
    const [a, b] = servers as [ApiServer, ApiServer];
    const standInPid = standIn.child.pid!;
    const target: RateTarget = {
      pids: [a.child.pid!, b.child.pid!],
      // The stand-in deletes at once; the instances' background deletes are done within a moment.
      idle: async () => {},
      gridCpuSeconds: () => cpuSeconds(standInPid),
    };
    const accounts: GridAccount[][] = [[], []];
    for (let i = 0; i < clients; i++) {
      accounts[0]!.push(await gridAccountOn(a));
      accounts[1]!.push(await gridAccountOn(i % 2 === 0 ? a : b));
    }
    // Untimed warm-up: both instances' paths compiled and their pools open.
    await ratePhase('warm-up', 2, clients, WARM_UP_SEC, target, (i) =>
      timedCycle(
        async () => (await accounts[1]![i]!.create()).id,
        (id) => accounts[1]![i]!.release(id),
      ),
    );
    const phases: RatePhase[] = [];
    // 1, 2, 2, 1: a drift of the machine's load over the phases weighs on both sides alike.
    for (const instances of [1, 2, 2, 1] as const) {
      const list = accounts[instances - 1]!;
      const phase = await ratePhase(
        `stand-in, ${instances} instance${instances === 1 ? '' : 's'}`,
        instances,
        clients,
        seconds / 2,
        target,
        (i) =>
          timedCycle(
            async () => (await list[i]!.create()).id,
            (id) => list[i]!.release(id),
          ),
      );
      phases.push(phase);
      log(
        `  [instances] rate, ${phase.label}: ${phase.created} sessions in ${fmt(phase.seconds, 1)} s = ${fmt(phase.perSec, 1)}/s (create p50 ${fmt(phase.create.p50, 1)} ms, CPU ms per session A ${fmt(phase.instanceCpuMsPerCreate[0], 2)} B ${fmt(phase.instanceCpuMsPerCreate[1], 2)}), failures ${phase.failures.length}`,
      );
    }
    return phases;
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    await standIn?.stop();
    await dropDatabase(pg.adminUrl, dbName).catch(() => {});
    await pg.stop();
  }
}
