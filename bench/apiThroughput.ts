/**
 * Scenario 1, API throughput: bare Koa ceiling vs authenticated `GET /v1/projects` (a user with 20
 * projects) and `POST /v1/projects`, alternating in each round, the server in its own process.
 */
import { type ApiServer, call, createProjects, newUser, startApiServer } from './api.ts';
import { type LoadResult, load } from './load.ts';
import { median } from './stats.ts';

export interface ThroughputOptions {
  /** Label: `sqlite` or `postgres`. */
  db: string;
  /** Extra server environment (DATABASE_URL, provider settings). */
  env: Record<string, string>;
  /** `GET /v1/projects` of the bare Koa server, and its process id. */
  bareUrl: string;
  barePid: number;
  rounds: number;
  durationSec: number;
  connections: number;
  log: (line: string) => void;
}

/** Medians over the rounds of one measurement. */
export interface Summary {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  non2xx: number;
  errors: number;
  runs: number[];
  /** Median server CPU time per request (µs): steadier than req/s on a shared machine. */
  cpuUsPerRequest: number;
}

export function summarise(name: string, results: LoadResult[]): Summary {
  return {
    name,
    rps: median(results.map((r) => r.rps)),
    p50: median(results.map((r) => r.p50)),
    p99: median(results.map((r) => r.p99)),
    requests: results.reduce((s, r) => s + r.requests, 0),
    non2xx: results.reduce((s, r) => s + r.non2xx, 0),
    errors: results.reduce((s, r) => s + r.errors, 0),
    runs: results.map((r) => r.rps),
    cpuUsPerRequest: median(results.map((r) => r.cpuUsPerRequest ?? Number.NaN)),
  };
}

export interface ThroughputResult {
  db: string;
  bare: Summary;
  list: Summary;
  create: Summary;
  /** Median over rounds of (list req/s ÷ bare req/s in the same round). */
  ratio: number;
  /** Median over rounds of (bare CPU per request ÷ list CPU per request in the same round). */
  cpuRatio: number;
}

/** A server seeded with a list user (20 projects) and a create user. */
export async function seededServer(env: Record<string, string>, nodeArgs: string[] = []) {
  const server: ApiServer = await startApiServer(env, nodeArgs);
  try {
    const listToken = await newUser(server.url);
    await createProjects(server.url, listToken, 20);
    const listed = await call<unknown[]>(server.url, 'GET', '/v1/projects', { token: listToken });
    if (listed.length !== 20) throw new Error(`expected 20 projects, listed ${listed.length}`);
    const createToken = await newUser(server.url);
    return { server, listToken, createToken };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

let created = 0;

/** The two authenticated loads against a seeded server. */
export function listLoad(
  url: string,
  token: string,
  durationSec: number,
  connections: number,
  serverPid?: number,
) {
  return load({
    url: `${url}/v1/projects`,
    headers: { Authorization: `Bearer ${token}` },
    durationSec,
    connections,
    serverPid,
  });
}

export function createLoad(
  url: string,
  token: string,
  durationSec: number,
  connections: number,
  serverPid?: number,
) {
  const prefix = `${process.pid}-${Date.now()}`;
  return load({
    url: `${url}/v1/projects`,
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: () => JSON.stringify({ name: `Load ${prefix}-${++created}` }),
    durationSec,
    connections,
    serverPid,
  });
}

export async function runApiThroughput(options: ThroughputOptions): Promise<ThroughputResult> {
  const { db, env, bareUrl, barePid, rounds, durationSec, connections, log } = options;
  const { server, listToken, createToken } = await seededServer(env);
  const bare: LoadResult[] = [];
  const list: LoadResult[] = [];
  const create: LoadResult[] = [];
  const ratios: number[] = [];
  const cpuRatios: number[] = [];
  try {
    const pid = server.child.pid;
    if (pid === undefined) throw new Error('the API server has no pid');
    // One short untimed warm-up of each path (JIT, connection pools, prepared statements).
    await load({ url: bareUrl, durationSec: 1, connections });
    await listLoad(server.url, listToken, 1, connections);
    for (let round = 1; round <= rounds; round++) {
      const b = await load({ url: bareUrl, durationSec, connections, serverPid: barePid });
      const l = await listLoad(server.url, listToken, durationSec, connections, pid);
      const c = await createLoad(server.url, createToken, durationSec, connections, pid);
      bare.push(b);
      list.push(l);
      create.push(c);
      ratios.push(l.rps / b.rps);
      cpuRatios.push((b.cpuUsPerRequest ?? Number.NaN) / (l.cpuUsPerRequest ?? Number.NaN));
      log(
        `  [${db}] round ${round}: bare ${b.rps.toFixed(0)} req/s, list ${l.rps.toFixed(0)} req/s (p99 ${l.p99} ms, non-2xx ${l.non2xx}; server CPU ${l.cpuUsPerRequest?.toFixed(0)} µs/req vs bare ${b.cpuUsPerRequest?.toFixed(0)}), create ${c.rps.toFixed(0)} req/s (p99 ${c.p99} ms, non-2xx ${c.non2xx})`,
      );
    }
  } finally {
    await server.stop();
  }
  return {
    db,
    bare: summarise('bare Koa, same JSON', bare),
    list: summarise('GET /v1/projects (20)', list),
    create: summarise('POST /v1/projects', create),
    ratio: median(ratios),
    cpuRatio: median(cpuRatios),
  };
}
