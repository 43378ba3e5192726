/**
 * A zero-latency stand-in for Browserbase's session API, in its recorded shapes:
 * `POST /v1/sessions`, `GET|POST /v1/sessions/:id`, `GET /v1/sessions/:id/debug`,
 * `GET /v1/sessions/:id/logs`. Plus `GET /__stats` (its own service time per request, from the
 * request's arrival to the end of the response, in ms) and `POST /__stats/reset`.
 *
 *   PORT=4001 node bench/browserbaseStandIn.ts
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';

const MAX_SESSIONS = 100_000;
const MAX_SAMPLES = 1_000_000;
const sessions = new Map<string, Record<string, unknown>>();
let samples: number[] = [];

const SESSION = /^\/v1\/sessions\/([^/?]+)(\/debug|\/logs)?$/;

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
  const session = {
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
  if (sessions.size >= MAX_SESSIONS) sessions.delete(sessions.keys().next().value as string);
  sessions.set(id, session);
  return session;
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const path = (req.url ?? '/').split('?')[0]!;
  if (path === '/__stats') {
    const sorted = [...samples].sort((a, b) => a - b);
    const at = (p: number) =>
      sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
    if (req.method === 'POST') samples = [];
    return send(res, 200, { count: sorted.length, p50: at(50), p99: at(99) });
  }
  if (req.headers['x-bb-api-key'] === undefined) return send(res, 401, { message: 'missing API key' });
  if (path === '/v1/sessions' && req.method === 'POST')
    return send(res, 201, newSession(await readBody(req)));
  const match = SESSION.exec(path);
  const session = match ? sessions.get(decodeURIComponent(match[1]!)) : undefined;
  if (!match) return send(res, 404, { statusCode: 404, error: 'Not Found', message: 'Not found' });
  if (!session) return send(res, 404, { statusCode: 404, error: 'Not Found', message: 'Session not found' });
  const id = String(session.id);
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
  handle(req, res).catch(() => send(res, 500, { message: 'stand-in failed' }));
});
server.keepAliveTimeout = 60_000;
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
process.once('SIGTERM', () => server.close(() => process.exit(0)));
