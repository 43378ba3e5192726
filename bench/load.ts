import autocannon from 'autocannon';
import { cpuSeconds } from './rssSampler.ts';

/** One autocannon run, summarised. Latencies are autocannon's (whole milliseconds, 2xx only). */
export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  non2xx: number;
  errors: number;
  /** CPU time the server process spent per completed request (µs), when `serverPid` was given. */
  cpuUsPerRequest?: number;
}

export interface LoadOptions {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** A fixed body, or one built per request (e.g. unique project names). */
  body?: string | (() => string);
  connections?: number;
  durationSec?: number;
  /** The serving process, to report its CPU time per request (Linux /proc). */
  serverPid?: number;
}

/** Runs autocannon against 127.0.0.1 only, bounded by `durationSec`. */
export async function load(options: LoadOptions): Promise<LoadResult> {
  const { url, method = 'GET', headers = {}, body, connections = 32, durationSec = 5, serverPid } = options;
  if (new URL(url).hostname !== '127.0.0.1') throw new Error(`refusing to load ${url}: loopback only`);
  const cpuBefore = serverPid === undefined ? 0 : cpuSeconds(serverPid);
  const result = await autocannon({
    url,
    connections,
    duration: durationSec,
    requests: [
      {
        method,
        headers,
        ...(typeof body === 'function'
          ? { setupRequest: (req: autocannon.Request) => ({ ...req, body: body() }) }
          : body !== undefined
            ? { body }
            : {}),
      },
    ],
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    ...(serverPid === undefined
      ? {}
      : {
          cpuUsPerRequest: ((cpuSeconds(serverPid) - cpuBefore) * 1e6) / Math.max(1, result.requests.total),
        }),
  };
}
