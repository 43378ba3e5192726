/**
 * A stand-in for Browserbase's session API, in its recorded shapes: `POST /v1/sessions`,
 * `GET|POST /v1/sessions/:id`, `GET /v1/sessions/:id/debug`, `GET /v1/sessions/:id/logs`. Zero
 * latency unless `getDelayMs` holds each session read open a while. Plus `GET /__stats` (its own
 * service time per request, from arrival to the end of the response, in ms; `POST` also resets).
 *
 * It records what it was asked (`record()`), so tests can count provider creates and reads, and it
 * notices two reads of one session in flight at once (`overlaps`): one session refreshed from two
 * places at the same moment.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';

const MAX_SESSIONS = 100_000;
const MAX_SAMPLES = 1_000_000;
const MAX_RECORDED = 100_000;

const SESSION = /^\/v1\/sessions\/([^/?]+)(\/debug|\/logs)?$/;

/** One request the stand-in answered (sessions API only). */
export interface StandInRequest {
  method: string;
  path: string;
  /** The provider session id a `/v1/sessions/:id…` request names. */
  sessionId?: string;
  status: number;
  /** The `X-BB-API-Key` it came with (tests give each client its own). */
  apiKey: string;
  /** Arrival, `performance.now()` of the stand-in's process (ms). */
  at: number;
}

/** What the stand-in saw, for tests. */
export interface StandInRecord {
  /** `POST /v1/sessions` answered 201. */
  creates: number;
  /** `GET /v1/sessions/:id` per session id. */
  reads: Map<string, number>;
  /** Session ids that had two `GET /v1/sessions/:id` in flight at once (one entry per overlap). */
  overlaps: string[];
  requests: StandInRequest[];
}

/** A running stand-in. */
export interface BrowserbaseStandIn {
  readonly url: string;
  record(): StandInRecord;
  /** Forgets what was recorded (not the sessions). */
  resetRecord(): void;
  stop(): Promise<void>;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        resolve(
          chunks.length ? (JSON.parse(Buffer.concat(chunks).toString()) as Record<string, unknown>) : {},
        );
      } catch {
        resolve({});
      }
    });
  });
}

function newSession(body: Record<string, unknown>): Record<string, unknown> {
  const id = randomUUID();
  const now = new Date();
  const timeout = typeof body.timeout === 'number' ? body.timeout : 300;
  const at = now.toISOString();
  return {
    id,
    createdAt: at,
    updatedAt: at,
    projectId: body.projectId ?? 'bench-project',
    startedAt: at,
    endedAt: null,
    expiresAt: new Date(now.getTime() + timeout * 1000).toISOString(),
    status: 'RUNNING',
    proxyBytes: 0,
    avgCpuUsage: null,
    memoryUsage: null,
    keepAlive: false,
    contextId: null,
    region: body.region ?? 'us-west-2',
    userMetadata: body.userMetadata ?? {},
    connectUrl: `wss://connect.usw2.browserbase.com?signingKey=sk-${id}`,
    seleniumRemoteUrl: 'http://connect.usw2.browserbase.com/webdriver',
    signingKey: `sk-${id}`,
  };
}

/** The stand-in as a `node:http` server, not yet listening. */
export function createBrowserbaseStandIn(options: { getDelayMs?: number; record?: boolean } = {}): {
  server: Server;
  record(): StandInRecord;
  resetRecord(): void;
} {
  const { getDelayMs = 0, record: recording = false } = options;
  const sessions = new Map<string, Record<string, unknown>>();
  let samples: number[] = [];
  let seen: StandInRecord = { creates: 0, reads: new Map(), overlaps: [], requests: [] };
  const readsInFlight = new Map<string, number>();

  const note = (req: IncomingMessage, at: number, status: number, sessionId?: string) => {
    if (!recording) return;
    if (req.method === 'POST' && status === 201) seen.creates++;
    if (seen.requests.length < MAX_RECORDED)
      seen.requests.push({
        method: req.method ?? '',
        path: (req.url ?? '/').split('?')[0]!,
        status,
        apiKey: String(req.headers['x-bb-api-key']),
        at,
        ...(sessionId ? { sessionId } : {}),
      });
  };

  async function handle(req: IncomingMessage, res: ServerResponse, at: number): Promise<void> {
    const path = (req.url ?? '/').split('?')[0]!;
    if (path === '/__stats') {
      const sorted = [...samples].sort((a, b) => a - b);
      const at = (p: number) =>
        sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
      if (req.method === 'POST') samples = [];
      return send(res, 200, { count: sorted.length, p50: at(50), p99: at(99) });
    }
    if (req.headers['x-bb-api-key'] === undefined) return send(res, 401, { message: 'missing API key' });
    if (path === '/v1/sessions' && req.method === 'POST') {
      const session = newSession(await readBody(req));
      if (sessions.size >= MAX_SESSIONS) sessions.delete(sessions.keys().next().value as string);
      sessions.set(String(session.id), session);
      note(req, at, 201);
      return send(res, 201, session);
    }
    const match = SESSION.exec(path);
    if (!match) return send(res, 404, { statusCode: 404, error: 'Not Found', message: 'Not found' });
    const id = decodeURIComponent(match[1]!);
    if (!match[2] && req.method === 'GET') {
      const inFlight = (readsInFlight.get(id) ?? 0) + 1;
      readsInFlight.set(id, inFlight);
      if (recording && inFlight > 1) seen.overlaps.push(id);
      if (recording) seen.reads.set(id, (seen.reads.get(id) ?? 0) + 1);
      try {
        if (getDelayMs > 0) await new Promise((r) => setTimeout(r, getDelayMs));
      } finally {
        readsInFlight.set(id, (readsInFlight.get(id) ?? 1) - 1);
      }
    }
    const session = sessions.get(id);
    if (!session) {
      note(req, at, 404, id);
      return send(res, 404, { statusCode: 404, error: 'Not Found', message: 'Session not found' });
    }
    note(req, at, 200, id);
    if (match[2] === '/debug' && req.method === 'GET')
      return send(res, 200, {
        debuggerFullscreenUrl: `https://www.browserbase.com/devtools-fullscreen/inspector.html?wss=connect.usw2.browserbase.com/debug/${id}`,
        debuggerUrl: `https://www.browserbase.com/devtools/inspector.html?wss=connect.usw2.browserbase.com/debug/${id}`,
        wsUrl: `wss://connect.usw2.browserbase.com/debug/${id}/devtools/browser/${id}`,
        pages: [],
      });
    if (match[2] === '/logs' && req.method === 'GET') return send(res, 200, []);
    if (!match[2] && req.method === 'GET') return send(res, 200, session);
    if (!match[2] && req.method === 'POST') {
      await readBody(req);
      const at = new Date().toISOString();
      if (session.status === 'RUNNING')
        Object.assign(session, { status: 'COMPLETED', endedAt: at, updatedAt: at });
      return send(res, 200, session);
    }
    return send(res, 405, { message: 'method not allowed' });
  }

  const server = createServer((req, res) => {
    const start = performance.now();
    res.once('finish', () => {
      if (samples.length < MAX_SAMPLES && req.url !== '/__stats') samples.push(performance.now() - start);
    });
    handle(req, res, start).catch(() => send(res, 500, { message: 'stand-in failed' }));
  });
  server.keepAliveTimeout = 60_000;
  return {
    server,
    record: () => seen,
    resetRecord: () => {
      seen = { creates: 0, reads: new Map(), overlaps: [], requests: [] };
    },
  };
}

/** Starts a recording stand-in on a free loopback port (in this process). */
export async function startBrowserbaseStandIn(
  options: { getDelayMs?: number } = {},
): Promise<BrowserbaseStandIn> {
  const standIn = createBrowserbaseStandIn({ ...options, record: true });
  await new Promise<void>((resolve) => standIn.server.listen(0, '127.0.0.1', resolve));
  const { port } = standIn.server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    record: standIn.record,
    resetRecord: standIn.resetRecord,
    stop: () =>
      new Promise<void>((resolve) => {
        standIn.server.closeAllConnections();
        standIn.server.close(() => resolve());
      }),
  };
}
