/** The `instances` scenario's figures, targets and options (bench/instances.ts measures, bench/instancesMarkdown.ts tells). */
import { median, percentile } from './stats.ts';

/** The targets of issue 26. */
export const INSTANCES_TARGETS = {
  /** Forwarding adds at most this much to a request's p50 (ms). */
  requestAddedP50Ms: 2,
  /** … and to a CDP round trip's p50 (ms). */
  cdpAddedP50Ms: 1,
  /** Create → connected → first evaluate on the Grid provider, p50, at most the Grid's own new session + this (ms). */
  gridCreateOverGridP50Ms: 30,
  /** Sessions created per second across 2 instances ÷ on 1, at least. */
  twoOverOneRate: 1.7,
} as const;

export interface Quantiles {
  p50: number;
  p95: number;
}

/** p50 and nearest-rank p95. */
export const quantiles = (values: number[]): Quantiles => ({
  p50: median(values),
  p95: percentile(values, 95),
});

/** CPU time each server process used per operation over a phase of one kind only (µs). */
export interface CpuPerOperation {
  operations: number;
  holderUs: number;
  otherUs: number;
}

/** Parts 1 and 2: two local-provider instances on one PostgreSQL, A holds the session. */
export interface ForwardingFigures {
  chromium: string | null;
  postgres: string;
  request: {
    /** `GET …/sessions/{id}` on A (the holder). */
    direct: number[];
    /** The same on B, which carries the provider's `get` to A. */
    forwarded: number[];
    /** The hop alone: A's signed `GET /internal/v1/provider-sessions/{psid}` from the bench, as B calls it. */
    hop: number[];
    cpu: { direct: CpuPerOperation; forwarded: CpuPerOperation };
  };
  cdp: {
    /** `Runtime.evaluate 1+1` round trip on a raw WebSocket to A's connectUrl. */
    direct: number[];
    /** The same through B (its http-proxy-3 to A). */
    forwarded: number[];
    /** WebSocket handshake (upgrade → open) through A and through B. */
    openDirect: number[];
    openForwarded: number[];
    /** playwright-core `connectOverCDP` → first `page.evaluate` through A and through B. */
    playwrightDirect: number[];
    playwrightForwarded: number[];
    cpu: { direct: CpuPerOperation; forwarded: CpuPerOperation };
  };
}

/** One create → connected → first evaluate: its phases (ms). */
export interface FlowTimings {
  create: number;
  connect: number;
  evaluate: number;
  total: number;
}

/** One rate phase: create+release loops from concurrent clients for a while. */
export interface RatePhase {
  label: string;
  instances: number;
  clients: number;
  seconds: number;
  created: number;
  perSec: number;
  create: Quantiles;
  release: Quantiles;
  /** CPU of the two Browserdeck processes (A, B) over the phase, per session created (ms). */
  instanceCpuMsPerCreate: [number, number];
  /** CPU of the Grid (its Java processes, and the drivers and browsers they ran) per session created (ms). */
  gridCpuMsPerCreate: number;
  /** Share of the whole machine's CPU time that was busy over the phase (/proc/stat). */
  machineBusy: number;
  /** Mean of the Grid's new-session queue length, sampled every 250 ms (NaN: not sampled). */
  meanQueued: number;
  failures: string[];
}

/** Part 3: the Selenium Grid provider against the Grid itself. */
export interface GridFigures {
  grid: {
    topology: string;
    nodes: number;
    slotsPerNode: number;
    java: string;
    chromedriver: string;
    chromium: string;
    /** The nodes start the browser through a script adding `--no-sandbox` (the bench runs as root). */
    noSandboxScript: boolean;
  };
  /** The Grid's own: W3C `POST /session` (same capabilities) → playwright-core on its `se:cdp` → first evaluate. */
  direct: FlowTimings[];
  /** Browserdeck with BROWSER_PROVIDER=selenium-grid: `POST …/sessions` → connectOverCDP(connectUrl) → first evaluate. */
  browserdeck: FlowTimings[];
  /** A bare WebSocket handshake to a Grid session's `se:cdp` (what the provider's create waits for), ms. */
  seCdpHandshakes: number[];
  /** The same handshake in the rate phase that opens one per session with several creating at once, ms. */
  seCdpUnderLoad: number[];
  /** Create+release loops: straight to the Grid, through 1 instance, through 2. */
  rates: RatePhase[];
  /** Why the Grid part did not run, when it did not. */
  skipped: string | null;
}

export interface InstancesFigures {
  forwarding: ForwardingFigures;
  grid: GridFigures | null;
  gridError: string | null;
  /** Create+release loops on the Grid provider against a zero-latency Grid stand-in, 1 and 2 instances alternating. */
  standIn: RatePhase[] | null;
  standInError: string | null;
  loads: { start: number; end: number };
}

export interface InstancesOptions {
  /** Timed requests per side (direct, forwarded, hop). */
  requests: number;
  /** Timed CDP round trips per side. */
  cdpRoundTrips: number;
  /** Timed Playwright connects (and WebSocket handshakes) per side. */
  connects: number;
  /** Whether to run the Grid part. */
  grid: boolean;
  /** Timed Grid flows per side (Grid direct, Browserdeck). */
  gridRuns: number;
  /** Length of each rate phase (s). */
  rateSec: number;
  /** Concurrent create+release clients in each rate phase on the real Grid. */
  rateClients: number;
  /** Concurrent create+release clients in each rate phase on the Grid stand-in. */
  standInClients: number;
  /** Sessions one Grid node runs at once. */
  slotsPerNode: number;
  log: (line: string) => void;
}

/** The headline figures the targets judge by. */
export function instancesHeadline(f: InstancesFigures) {
  const r = f.forwarding.request;
  const c = f.forwarding.cdp;
  const request = { direct: quantiles(r.direct), forwarded: quantiles(r.forwarded), hop: quantiles(r.hop) };
  const cdp = { direct: quantiles(c.direct), forwarded: quantiles(c.forwarded) };
  const g = f.grid && !f.grid.skipped ? f.grid : null;
  const total = (list: FlowTimings[], pick: (t: FlowTimings) => number) => quantiles(list.map(pick));
  const grid = g
    ? {
        direct: total(g.direct, (t) => t.total),
        browserdeck: total(g.browserdeck, (t) => t.total),
        directCreate: total(g.direct, (t) => t.create),
        browserdeckCreate: total(g.browserdeck, (t) => t.create),
      }
    : null;
  const rate = (instances: number) => g?.rates.find((p) => p.instances === instances);
  const one = rate(1);
  const two = rate(2);
  const standInRate = (instances: number) => {
    const phases = (f.standIn ?? []).filter((p) => p.instances === instances);
    const seconds = phases.reduce((sum, p) => sum + p.seconds, 0);
    return phases.length ? phases.reduce((sum, p) => sum + p.created, 0) / seconds : Number.NaN;
  };
  return {
    request,
    requestAdded: request.forwarded.p50 - request.direct.p50,
    cdp,
    cdpAdded: cdp.forwarded.p50 - cdp.direct.p50,
    grid,
    gridAdded: grid ? grid.browserdeck.p50 - grid.direct.p50 : Number.NaN,
    gridCreateAdded: grid ? grid.browserdeckCreate.p50 - grid.directCreate.p50 : Number.NaN,
    rateRatio: one && two ? two.perSec / one.perSec : Number.NaN,
    one,
    two,
    standIn: { one: standInRate(1), two: standInRate(2), ratio: standInRate(2) / standInRate(1) },
  };
}
