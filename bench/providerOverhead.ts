/**
 * Scenario 2, provider overhead: `POST /v1/browserbase/projects/:id/sessions` against a server whose
 * Browserbase provider points at the zero-latency stand-in, compared with calling the stand-in
 * directly. Sequential requests (one in flight), alternating direct/API in each round, so the
 * difference is the API's own cost per create (auth, validation, database, SDK), not queueing.
 */
import { performance } from 'node:perf_hooks';
import { call, newUser, startApiServer } from './api.ts';
import { type LoadResult, load } from './load.ts';
import { median, percentile } from './stats.ts';

export interface OverheadOptions {
  standInUrl: string;
  /** Extra server environment (DATABASE_URL…). */
  env: Record<string, string>;
  rounds: number;
  /** Requests per side per round (each side is also bounded to 20 s). */
  requests: number;
  connections: number;
  durationSec: number;
  log: (line: string) => void;
}

export interface OverheadResult {
  direct: { p50: number; p99: number };
  api: { p50: number; p99: number };
  /** The stand-in's own service time (server side) while serving the API's creates. */
  standInService: { p50: number; p99: number };
  /** Median over rounds of (API p50 − direct p50). */
  overheadP50: number;
  concurrent: LoadResult;
  samples: number;
}

const API_KEY = 'bench-api-key';
const PROJECT = 'bench-browserbase-project';

export const browserbaseEnv = (standInUrl: string): Record<string, string> => ({
  BROWSER_PROVIDER: 'browserbase',
  BROWSERBASE_API_KEY: API_KEY,
  BROWSERBASE_PROJECT_ID: PROJECT,
  BROWSERBASE_BASE_URL: standInUrl,
});

/** Times `count` sequential POSTs (bounded by 20 s); throws on an unexpected status. */
async function timePosts(url: string, headers: Record<string, string>, body: string, count: number) {
  const times: number[] = [];
  const deadline = performance.now() + 20_000;
  for (let i = 0; i < count && performance.now() < deadline; i++) {
    const start = performance.now();
    const response = await fetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(10_000) });
    const text = await response.text();
    times.push(performance.now() - start);
    if (response.status !== 201) throw new Error(`POST ${url} → ${response.status}: ${text.slice(0, 300)}`);
  }
  return times;
}

export async function runProviderOverhead(options: OverheadOptions): Promise<OverheadResult> {
  const { standInUrl, env, rounds, requests, connections, durationSec, log } = options;
  const server = await startApiServer({ ...env, ...browserbaseEnv(standInUrl) });
  try {
    const token = await newUser(server.url);
    const project = await call<{ id: string }>(server.url, 'POST', '/v1/projects', {
      token,
      body: { name: 'Provider bench' },
      expect: 201,
    });
    const apiUrl = `${server.url}/v1/browserbase/projects/${project.id}/sessions`;
    const apiHeaders = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
    const directUrl = `${standInUrl}/v1/sessions`;
    const directHeaders = { 'X-BB-API-Key': API_KEY, 'Content-Type': 'application/json' };
    const directBody = JSON.stringify({
      projectId: PROJECT,
      region: 'us-west-2',
      timeout: 300,
      userMetadata: { browserdeckSessionId: crypto.randomUUID(), browserdeckProjectId: project.id },
    });
    // Warm-up, untimed.
    await timePosts(directUrl, directHeaders, directBody, 50);
    await timePosts(apiUrl, apiHeaders, '{}', 50);
    const direct: number[] = [];
    const api: number[] = [];
    const overheads: number[] = [];
    const service: Array<{ p50: number; p99: number }> = [];
    for (let round = 1; round <= rounds; round++) {
      const d = await timePosts(directUrl, directHeaders, directBody, requests);
      await fetch(`${standInUrl}/__stats`, { method: 'POST' });
      const a = await timePosts(apiUrl, apiHeaders, '{}', requests);
      service.push((await (await fetch(`${standInUrl}/__stats`)).json()) as { p50: number; p99: number });
      direct.push(...d);
      api.push(...a);
      overheads.push(median(a) - median(d));
      log(
        `  [provider] round ${round}: stand-in direct p50 ${median(d).toFixed(2)} ms, API create p50 ${median(a).toFixed(2)} ms`,
      );
    }
    const concurrent = await load({
      url: apiUrl,
      method: 'POST',
      headers: apiHeaders,
      body: '{}',
      connections,
      durationSec,
    });
    log(
      `  [provider] ${connections} connections: ${concurrent.rps.toFixed(0)} creates/s, p99 ${concurrent.p99} ms`,
    );
    return {
      direct: { p50: median(direct), p99: percentile(direct, 99) },
      api: { p50: median(api), p99: percentile(api, 99) },
      standInService: { p50: median(service.map((s) => s.p50)), p99: median(service.map((s) => s.p99)) },
      overheadP50: median(overheads),
      concurrent,
      samples: api.length,
    };
  } finally {
    await server.stop();
  }
}
