import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import tls from 'node:tls';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEventStream, type StreamEvent } from './eventStream.ts';
import { type NginxFront, startNginxFront } from './nginxFront.ts';
import { type RunJson, type RunsUser, signUpUser, until } from './runsApi.ts';
import { type ServerProcess, startServerProcess } from './serverProcess.ts';

/**
 * Browserdeck behind the nginx configuration it ships (deploy/nginx/browserdeck.conf, SPEC §16):
 * that very file, with only its marked lines rewritten (loopback ports, a self-signed certificate,
 * the server's port; test/nginxFront.ts derives it and checks the markers), in front of the server
 * started as `npm start` starts it with TRUST_PROXY=1 and no PUBLIC_URL. Through nginx over TLS:
 * handed-out URLs point at nginx (wss://), Playwright drives a session over it, the live view's
 * socket upgrades, a run's log lines arrive while it runs, and two client addresses get two
 * sign-in limits.
 */

const AUTH_LIMIT = 5;

/** An answer read whole: status, headers and the body parsed as JSON when it is. */
interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Record<string, unknown> | null;
}

/** One request through nginx's TLS port, from `localAddress` (a loopback address of our choice). */
function throughNginx(
  method: string,
  path: string,
  options: { body?: unknown; headers?: Record<string, string>; localAddress?: string } = {},
): Promise<Answer> {
  return new Promise((done, fail) => {
    const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
    const req = https.request(
      {
        host: '127.0.0.1',
        port: ports.tls,
        method,
        path,
        ca: certificatePem,
        localAddress: options.localAddress,
        agent: false,
        timeout: 30_000,
        headers: {
          ...(payload === undefined ? {} : { 'Content-Type': 'application/json' }),
          ...options.headers,
        },
      },
      (res) => collect(res, done, fail),
    );
    req.on('timeout', () => req.destroy(new Error(`${method} ${path} timed out`)));
    req.on('error', fail);
    req.end(payload);
  });
}

function collect(
  res: http.IncomingMessage,
  done: (answer: Answer) => void,
  fail: (error: Error) => void,
): void {
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('error', fail);
  res.on('end', () => {
    const text = Buffer.concat(chunks).toString('utf8');
    let body: Record<string, unknown> | null = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = { text };
    }
    done({ status: res.statusCode ?? 0, headers: res.headers, body });
  });
}

/** A handed-out URL (`ws://`/`wss://`, any origin) moved onto nginx's TLS port, path and query kept. */
function onNginx(url: string): string {
  const moved = new URL(url);
  moved.protocol = 'wss:';
  moved.host = `127.0.0.1:${ports.tls}`;
  return moved.toString();
}

const ports = { tls: 0, http: 0, server: 0 };
let certificatePem = '';
let defaultCas: string[] = [];
let dataDir = '';
let front: NginxFront | undefined;
let server: ServerProcess | undefined;
let user: RunsUser;
let nginxUrl = '';
let sessionId: string | undefined;
let connectUrl = '';
let browser: Browser | undefined;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'browserdeck-nginx-data-'));
  server = await startServerProcess(
    {
      DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      TRUST_PROXY: '1',
      AUTH_RATE_LIMIT_PER_ADDRESS: String(AUTH_LIMIT),
      LOCAL_WARM_BROWSERS: '1',
    },
    60_000,
  );
  ports.server = Number(new URL(server.url).port);
  // `npm ci && npm test` needs nothing installed first: nginx and openssl come from apt-get (as root).
  front = await startNginxFront({ upstreamPort: ports.server, why: 'the nginx front test' });
  ports.tls = front.tlsPort;
  ports.http = front.httpPort;
  nginxUrl = front.url;
  certificatePem = front.certificatePem;
  // Every TLS client of this test (fetch, Playwright's WebSocket, WebSocket) trusts that certificate
  // and verifies it as usual: no NODE_TLS_REJECT_UNAUTHORIZED=0.
  defaultCas = tls.getCACertificates('default');
  tls.setDefaultCACertificates([...defaultCas, certificatePem]);
  await until('nginx to answer on its TLS port', async () => {
    const answer = await throughNginx('GET', '/healthz').catch(() => undefined);
    return answer?.status === 200 ? true : undefined;
  });
  user = await signUpUser(nginxUrl);
}, 120_000);

afterAll(async () => {
  await browser?.close().catch(() => {});
  if (sessionId && user)
    await user.call('POST', `${user.base}/sessions/${sessionId}:release`).catch(() => undefined);
  const nginxCode = await front?.stop();
  const serverCode = await server?.stop();
  if (defaultCas.length > 0) tls.setDefaultCACertificates(defaultCas);
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  if (front) expect(nginxCode, `nginx's exit (${front.output()})`).toBe(0);
  if (server) expect(serverCode, 'the server’s exit').toBe(0);
}, 60_000);

describe('Browserdeck behind deploy/nginx/browserdeck.conf (TLS, TRUST_PROXY=1, no PUBLIC_URL)', () => {
  it('hands out URLs on nginx (wss://, from X-Forwarded-Proto/Host) that Playwright drives', async () => {
    // A client's own forwarded headers are replaced by nginx's, not believed.
    const created = await user.call<{ id: string; connectUrl: string; seleniumRemoteUrl: string }>(
      'POST',
      `${user.base}/sessions`,
      { timeoutSec: 300 },
      { 'X-Forwarded-Proto': 'http', 'X-Forwarded-Host': 'elsewhere.example' },
    );
    expect(created.status).toBe(201);
    sessionId = created.body.id;
    connectUrl = created.body.connectUrl;
    expect(connectUrl).toMatch(
      new RegExp(`^wss://127\\.0\\.0\\.1:${ports.tls}/v1/local/sessions/[^/]+/connect\\?signingKey=`),
    );
    expect(created.body.seleniumRemoteUrl).toMatch(
      new RegExp(`^https://127\\.0\\.0\\.1:${ports.tls}/v1/local/sessions/[^/]+/webdriver/`),
    );

    browser = await chromium.connectOverCDP(connectUrl, { timeout: 30_000 });
    const context = browser.contexts()[0];
    if (!context) throw new Error('the session’s browser has no context');
    const page = await context.newPage();
    expect(await page.evaluate(() => 1 + 1)).toBe(2);

    // WebDriver through its own location: a new session attaches to the same browser, and a
    // command on it answers (W3C, as selenium-webdriver sends it).
    const webdriver = created.body.seleniumRemoteUrl.replace(/\/+$/, '');
    const attached = await fetch(`${webdriver}/session`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ capabilities: { alwaysMatch: {} } }),
    });
    expect(attached.status).toBe(200);
    const { value } = (await attached.json()) as { value: { sessionId: string } };
    const url = await fetch(`${webdriver}/session/${value.sessionId}/url`);
    expect(url.status).toBe(200);
    expect(((await url.json()) as { value: unknown }).value).toEqual(expect.any(String));
  });

  it('upgrades the live view’s WebSocket and carries its messages', async () => {
    const id = await ensureSession();
    const debug = await user.call<{ debuggerFullscreenUrl: string }>(
      'GET',
      `${user.base}/sessions/${id}/debug`,
    );
    expect(debug.status).toBe(200);
    const page = new URL(debug.body.debuggerFullscreenUrl);
    expect(page.pathname).toBe(`/v1/live/${id}`);
    const socketUrl = `${onNginx(page.toString()).split('?')[0]}/ws${page.search}`;
    const socket = new WebSocket(socketUrl);
    try {
      const first = await new Promise<unknown>((done, fail) => {
        const timer = setTimeout(() => fail(new Error('no live-view message within 20 s')), 20_000);
        socket.addEventListener('message', (event) => {
          clearTimeout(timer);
          done(event.data);
        });
        socket.addEventListener('error', () => fail(new Error(`the live-view socket failed (${socketUrl})`)));
        socket.addEventListener('close', (event) =>
          fail(new Error(`the live-view socket closed: ${event.code} ${event.reason}`)),
        );
      });
      expect(first).toBeDefined();
    } finally {
      socket.close();
    }
    // And the page itself is handed out on nginx, as every URL is.
    expect(page.origin).toBe(nginxUrl);
  });

  it('streams a run’s log lines through nginx while it runs, not when it ends', async () => {
    const id = await ensureSession();
    const driver = browser ?? (await chromium.connectOverCDP(onNginx(connectUrl), { timeout: 30_000 }));
    browser = driver;
    // The run cannot end before the test has seen its first line and answered: had nginx held the
    // stream back, the first line would come only with the run's end (TIMED_OUT, 60 s on).
    const script = [
      "log('first');",
      'await page.waitForFunction(() => globalThis.nginxFrontGo === true, undefined, { timeout: 0, polling: 100 });',
      "log('second');",
      "return 'done';",
    ].join('\n');
    const started = await user.call<RunJson>('POST', `${user.base}/sessions/${id}/runs`, {
      script,
      timeoutSec: 60,
    });
    expect(started.status).toBe(201);
    const runId = started.body.id;

    const response = await fetch(`${nginxUrl}${user.base}/runs/${runId}/logs/stream`, {
      headers: { Authorization: `Bearer ${user.token}`, Accept: 'text/event-stream' },
      signal: AbortSignal.timeout(90_000),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(response.headers.get('content-length')).toBeNull();
    expect(response.headers.get('content-encoding')).toBeNull();

    const message = (event: StreamEvent) =>
      event.event === 'log' ? (JSON.parse(event.data) as { message: string }).message : undefined;
    let atFirst: Promise<{ status: string; secondSeen: boolean }> | undefined;
    let signal: NodeJS.Timeout | undefined;
    const received: StreamEvent[] = [];
    const events = await readEventStream(response, (event) => {
      received.push(event);
      if (message(event) !== 'first' || atFirst) return;
      const secondSeen = received.some((e) => message(e) === 'second');
      atFirst = user.call<RunJson>('GET', `${user.base}/runs/${runId}`).then((r) => ({
        status: r.body.status,
        secondSeen,
      }));
      // Set on every page of the session (the run's is its first): again until the run goes on.
      signal = setInterval(() => {
        for (const page of driver.contexts()[0]?.pages() ?? [])
          void page
            .evaluate(() => {
              (globalThis as { nginxFrontGo?: boolean }).nginxFrontGo = true;
            })
            .catch(() => {});
      }, 200);
    });
    clearInterval(signal);

    expect(await atFirst).toEqual({ status: 'RUNNING', secondSeen: false });
    const messages = events.map(message).filter((m) => m === 'first' || m === 'second');
    expect(messages).toEqual(['first', 'second']);
    expect(events.at(-1)?.event).toBe('end');
    expect(JSON.parse(events.at(-1)?.data ?? '{}')).toMatchObject({
      id: runId,
      status: 'SUCCEEDED',
      result: 'done',
    });
  }, 120_000);

  it('releases the session through nginx', async () => {
    const id = await ensureSession();
    const released = await user.call<{ status: string }>('POST', `${user.base}/sessions/${id}:release`);
    expect(released.status).toBe(200);
    expect(released.body.status).toBe('COMPLETED');
    sessionId = undefined;
    await browser?.close().catch(() => {});
    browser = undefined;
  });

  it('keeps two clients’ sign-in limits apart: the server sees each address nginx forwards', async () => {
    // A's attempts each claim another X-Forwarded-For: nginx appends A's real address, the one
    // TRUST_PROXY=1 takes, so forging the header buys A nothing.
    const attempt = (from: string, n: number) =>
      throughNginx('POST', '/v1/auth/signin', {
        localAddress: from,
        headers: { 'X-Forwarded-For': `203.0.113.${n + 1}` },
        body: { email: `nobody-${n}-${from}@example.com`, password: 'not the password' },
      });
    const statuses: number[] = [];
    for (let n = 0; n < AUTH_LIMIT; n++) statuses.push((await attempt('127.0.0.2', n)).status);
    expect(statuses).toEqual(Array.from({ length: AUTH_LIMIT }, () => 401));
    const limited = await attempt('127.0.0.2', AUTH_LIMIT);
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ code: 'rate_limited' });
    expect(limited.headers['retry-after']).toMatch(/^\d+$/);
    // B has its own budget (as 127.0.0.1 has: the sign-up before was within it).
    const other = await attempt('127.0.0.3', 0);
    expect(other.status).toBe(401);
    expect(other.body).toMatchObject({ code: 'invalid_credentials' });
  });

  it('redirects plain HTTP to HTTPS and keeps /metrics off the public address', async () => {
    const redirect = await new Promise<http.IncomingMessage>((done, fail) =>
      http
        .get(
          { host: '127.0.0.1', port: ports.http, path: '/v1/projects?archived=false', agent: false },
          (res) => {
            res.resume();
            done(res);
          },
        )
        .on('error', fail),
    );
    expect(redirect.statusCode).toBe(301);
    expect(redirect.headers.location).toBe('https://127.0.0.1/v1/projects?archived=false');

    // nginx refuses it in any letter case (the server's router matches paths regardless of case)…
    for (const path of ['/metrics', '/METRICS', '/Metrics/'])
      expect((await throughNginx('GET', path)).status).toBe(403);
    // …and the server withholds it too: behind a trusted proxy, without METRICS_TOKEN or METRICS_LISTEN.
    expect((await fetch(`${server?.url}/metrics`)).status).toBe(404);
    expect(server?.output()).toContain('/metrics is not served');
  });
});

/** The session the first test made, or a new one (made through nginx) when that test failed early. */
async function ensureSession(): Promise<string> {
  if (sessionId) return sessionId;
  const created = await user.call<{ id: string; connectUrl: string }>('POST', `${user.base}/sessions`, {
    timeoutSec: 300,
  });
  if (created.status !== 201)
    throw new Error(`session create: ${created.status} ${JSON.stringify(created.body)}`);
  sessionId = created.body.id;
  connectUrl = created.body.connectUrl;
  return sessionId;
}
