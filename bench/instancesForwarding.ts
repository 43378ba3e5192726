/**
 * Parts 1 and 2 of the `instances` scenario: a forwarded request and a forwarded CDP round trip
 * against direct ones. Two servers (examples/server/src/main.ts in processes of their own, as the
 * other API scenarios start them: bench/api.ts, LOG_LEVEL=silent) on one PostgreSQL database, each
 * with its own DATA_DIR and LOCAL_INSTANCE_ID, sharing SECRET_KEY and JWT_PRIVATE_KEY, the local
 * provider. A holds one session's browser; B carries what needs it to A.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { findChromium } from '@browserdeck/adapters/local-chromium';
import { SecretBox } from '@browserdeck/adapters/secrets';
import { chromium } from 'playwright-core';
import { INSTANCE_AUTH_HEADER, InstanceAuth } from '../packages/adapters/src/instances/InstanceAuth.ts';
import { INTERNAL_PREFIX } from '../packages/adapters/src/instances/instanceCalls.ts';
import { createDatabase, dropDatabase, startPostgresServer } from '../test/postgresServer.ts';
import { type ApiServer, call, newUser, startApiServer } from './api.ts';
import { openPageCdp } from './instancesCdp.ts';
import type { CpuPerOperation, ForwardingFigures, InstancesOptions } from './instancesFigures.ts';
import { cpuSeconds } from './rssSampler.ts';
import { fmt, median } from './stats.ts';

const WARM_UP_REQUESTS = 30;
const WARM_UP_ROUND_TRIPS = 200;
/** Operations of each one-kind phase whose server CPU is read. */
const CPU_PHASE_OPERATIONS = 300;

/** `url` as if a load balancer had sent it to `server`: same path and query, `server`'s host. */
export function through(server: { readonly url: string }, url: string): string {
  const target = new URL(url);
  target.host = new URL(server.url).host;
  return target.toString();
}

/** The instances' shared settings (what a deployment shares) and each one's own. */
export function instanceEnv(
  databaseUrl: string,
  secretKey: string,
  jwtKey: string,
  id: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    SECRET_KEY: secretKey,
    JWT_PRIVATE_KEY: jwtKey,
    LOCAL_INSTANCE_ID: id,
    ...(process.env.CHROMIUM_PATH ? { CHROMIUM_PATH: process.env.CHROMIUM_PATH } : {}),
    ACCESS_TOKEN_TTL_SEC: '3600',
    AUTH_RATE_LIMIT_PER_ADDRESS: '100000',
    // e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to see where a server's time goes.
    ...(process.env.BENCH_INSTANCES_NODE_OPTIONS
      ? { NODE_OPTIONS: process.env.BENCH_INSTANCES_NODE_OPTIONS }
      : {}),
    ...extra,
  };
}

/** Fresh shared keys: a SECRET_KEY (base64, 32 bytes) and an Ed25519 JWT_PRIVATE_KEY. */
export function sharedKeys(): { secretKey: string; jwtKey: string } {
  return {
    secretKey: randomBytes(32).toString('base64'),
    jwtKey: generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}

/** The CPU (µs) `pids` use over `run`, per one of its `operations`. */
async function cpuPer(
  holder: number,
  other: number,
  operations: number,
  run: () => Promise<void>,
): Promise<CpuPerOperation> {
  const before = [cpuSeconds(holder), cpuSeconds(other)] as const;
  await run();
  const after = [cpuSeconds(holder), cpuSeconds(other)] as const;
  return {
    operations,
    holderUs: ((after[0] - before[0]) * 1e6) / operations,
    otherUs: ((after[1] - before[1]) * 1e6) / operations,
  };
}

/** A timed fetch that reads the whole body; throws unless 200. */
async function timedGet(url: string, headers: Record<string, string>): Promise<number> {
  const t0 = performance.now();
  const response = await fetch(url, { headers });
  const text = await response.text();
  const ms = performance.now() - t0;
  if (response.status !== 200) throw new Error(`GET ${url} → ${response.status}: ${text.slice(0, 300)}`);
  return ms;
}

/** Runs `sides` in turn `count` times, the order turning each time; each side's timings in its list. */
async function interleaved(
  count: number,
  sides: ReadonlyArray<{ times: number[] | null; run: () => Promise<number> }>,
): Promise<void> {
  for (let i = 0; i < count; i++) {
    for (let k = 0; k < sides.length; k++) {
      const side = sides[(i + k) % sides.length]!;
      const ms = await side.run();
      side.times?.push(ms);
    }
  }
}

export async function measureForwarding(options: InstancesOptions): Promise<ForwardingFigures> {
  const { log } = options;
  const pg = await startPostgresServer();
  const servers: ApiServer[] = [];
  const dbName = `bench_instances_${process.pid}`;
  try {
    const databaseUrl = await createDatabase(pg.adminUrl, dbName);
    const { secretKey, jwtKey } = sharedKeys();
    const env = (i: number) =>
      instanceEnv(databaseUrl, secretKey, jwtKey, `bench-${'ab'[i]}`, {
        LOCAL_WARM_BROWSERS: '0',
        LOCAL_MAX_SESSIONS: '2',
      });
    // One after the other: the first runs the migrations.
    const a = await startApiServer(env(0));
    servers.push(a);
    const b = await startApiServer(env(1));
    servers.push(b);
    log(`  [instances] ${pg.description}; A ${a.url}, B ${b.url}`);
    const token = await newUser(a.url);
    const project = await call<{ id: string }>(a.url, 'POST', '/v1/projects', {
      token,
      body: { name: 'Instances bench' },
      expect: 201,
    });
    const base = `/v1/local/projects/${project.id}/sessions`;
    const session = await call<{ id: string; connectUrl: string }>(a.url, 'POST', base, {
      token,
      body: { timeoutSec: 1800 },
      expect: 201,
    });
    const stored = await call<{ providerSessionId?: string }>(b.url, 'GET', `${base}/${session.id}`, {
      token,
    });
    const providerSessionId =
      stored.providerSessionId ??
      /\/sessions\/([^/]+)\/connect/.exec(new URL(session.connectUrl).pathname)?.[1];
    if (!providerSessionId) throw new Error(`no provider session id in ${session.connectUrl}`);
    const auth = { Authorization: `Bearer ${token}` };
    // The hop alone: the bench signs as B would (same shared key), to A's internal route.
    const signer = new InstanceAuth({
      signer: new SecretBox(Buffer.from(secretKey, 'base64')).signer('instances'),
      instanceId: 'bench-b',
    });
    const hopPath = `${INTERNAL_PREFIX}/provider-sessions/${encodeURIComponent(providerSessionId)}`;
    const direct = () => timedGet(`${a.url}${base}/${session.id}`, auth);
    const forwarded = () => timedGet(`${b.url}${base}/${session.id}`, auth);
    const hop = () =>
      timedGet(`${a.url}${hopPath}`, {
        [INSTANCE_AUTH_HEADER]: signer.sign({
          method: 'GET',
          path: hopPath,
          target: 'bench-a',
          body: 'empty',
        }),
      });

    const request: ForwardingFigures['request'] = {
      direct: [],
      forwarded: [],
      hop: [],
      cpu: {} as ForwardingFigures['request']['cpu'],
    };
    await interleaved(WARM_UP_REQUESTS, [
      { times: null, run: direct },
      { times: null, run: forwarded },
      { times: null, run: hop },
    ]);
    await interleaved(options.requests, [
      { times: request.direct, run: direct },
      { times: request.forwarded, run: forwarded },
      { times: request.hop, run: hop },
    ]);
    const pids = [a.child.pid!, b.child.pid!] as const;
    const repeat = (n: number, run: () => Promise<number>) => async () => {
      for (let i = 0; i < n; i++) await run();
    };
    request.cpu.direct = await cpuPer(...pids, CPU_PHASE_OPERATIONS, repeat(CPU_PHASE_OPERATIONS, direct));
    request.cpu.forwarded = await cpuPer(
      ...pids,
      CPU_PHASE_OPERATIONS,
      repeat(CPU_PHASE_OPERATIONS, forwarded),
    );
    log(
      `  [instances] GET …/sessions/{id} p50 ms: direct ${fmt(median(request.direct), 2)}, forwarded ${fmt(median(request.forwarded), 2)}, hop alone ${fmt(median(request.hop), 2)}`,
    );

    const cdp: ForwardingFigures['cdp'] = {
      direct: [],
      forwarded: [],
      openDirect: [],
      openForwarded: [],
      playwrightDirect: [],
      playwrightForwarded: [],
      cpu: {} as ForwardingFigures['cdp']['cpu'],
    };
    const viaA = through(a, session.connectUrl);
    const viaB = through(b, session.connectUrl);
    const clientA = await openPageCdp(viaA);
    const clientB = await openPageCdp(viaB);
    try {
      await interleaved(WARM_UP_ROUND_TRIPS, [
        { times: null, run: clientA.evaluate },
        { times: null, run: clientB.evaluate },
      ]);
      await interleaved(options.cdpRoundTrips, [
        { times: cdp.direct, run: clientA.evaluate },
        { times: cdp.forwarded, run: clientB.evaluate },
      ]);
      const n = CPU_PHASE_OPERATIONS * 3;
      cdp.cpu.direct = await cpuPer(...pids, n, repeat(n, clientA.evaluate));
      cdp.cpu.forwarded = await cpuPer(...pids, n, repeat(n, clientB.evaluate));
    } finally {
      await clientA.close();
      await clientB.close();
    }
    log(
      `  [instances] Runtime.evaluate round trip p50 ms: direct ${fmt(median(cdp.direct), 3)}, forwarded ${fmt(median(cdp.forwarded), 3)}`,
    );

    const openOnly = (url: string) => async () => {
      const client = await openPageCdp(url);
      await client.close();
      return client.openMs;
    };
    const playwright = (url: string) => async () => {
      const t0 = performance.now();
      const browser = await chromium.connectOverCDP(url);
      const context = browser.contexts()[0] ?? (await browser.newContext());
      const page = context.pages()[0] ?? (await context.newPage());
      const value = await page.evaluate('1 + 1');
      const ms = performance.now() - t0;
      await browser.close();
      if (value !== 2) throw new Error(`page.evaluate answered ${JSON.stringify(value)}`);
      return ms;
    };
    await interleaved(2, [
      { times: null, run: openOnly(viaA) },
      { times: null, run: openOnly(viaB) },
      { times: null, run: playwright(viaA) },
      { times: null, run: playwright(viaB) },
    ]);
    await interleaved(options.connects, [
      { times: cdp.openDirect, run: openOnly(viaA) },
      { times: cdp.openForwarded, run: openOnly(viaB) },
      { times: cdp.playwrightDirect, run: playwright(viaA) },
      { times: cdp.playwrightForwarded, run: playwright(viaB) },
    ]);
    log(
      `  [instances] connectOverCDP → first evaluate p50 ms: direct ${fmt(median(cdp.playwrightDirect), 1)}, forwarded ${fmt(median(cdp.playwrightForwarded), 1)}`,
    );
    await call(b.url, 'POST', `${base}/${session.id}:release`, { token, body: {} });
    return {
      chromium: (await findChromium())?.path ?? null,
      postgres: pg.description,
      request,
      cdp,
    };
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    await dropDatabase(pg.adminUrl, dbName).catch(() => {});
    await pg.stop();
  }
}
