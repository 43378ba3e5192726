import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../examples/server/src/config.ts';
import { type RunningServer, startServer } from '../examples/server/src/startServer.ts';
import { type BrowserbaseStandIn, startBrowserbaseStandIn } from './browserbaseStandIn.ts';

const METRICS_TOKEN = 'server-metrics-token-0123456789';

/**
 * http-api.md §9–10 through the standalone server: `METRICS_TOKEN` and `METRICS_LISTEN` wired from the
 * environment, and the request cut-off (`REQUEST_TIMEOUT_SEC`, 1 s here) closing sockets.
 */
describe('the server: /metrics protection and the request cut-off', () => {
  let standIn: BrowserbaseStandIn;
  let server: RunningServer;
  const dataDir = mkdtempSync(join(tmpdir(), 'browserdeck-hardening-'));

  beforeAll(async () => {
    standIn = await startBrowserbaseStandIn();
    const config = loadConfig({
      DATA_DIR: dataDir,
      PORT: '0',
      BROWSER_PROVIDER: 'browserbase',
      BROWSERBASE_API_KEY: 'bb_test',
      BROWSERBASE_PROJECT_ID: 'test-browserbase-project',
      BROWSERBASE_BASE_URL: standIn.url,
      METRICS_TOKEN,
      METRICS_LISTEN: '127.0.0.1:0',
      REQUEST_TIMEOUT_SEC: '1',
    });
    server = await startServer(config, pino({ level: 'silent' }));
  });
  afterAll(async () => {
    await server?.stop(100);
    await standIn?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('serves /metrics only on METRICS_LISTEN, behind METRICS_TOKEN', async () => {
    expect(server.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.metricsUrl).not.toBe(server.url);
    const onApi = await fetch(`${server.url}/metrics`, {
      headers: { Authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(onApi.status).toBe(404);
    expect(onApi.headers.get('x-content-type-options')).toBe('nosniff');
    const refused = await fetch(`${server.metricsUrl}/metrics`);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const res = await fetch(`${server.metricsUrl}/metrics`, {
      headers: { Authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(res.status).toBe(200);
    const text = await res.text();
    // The API server's own traffic, in the registry the metrics address renders.
    expect(text).toContain('browserdeck_http_requests_total{method="GET",route="unmatched",status="404"} 1');
    expect(text).toContain('# TYPE browserdeck_active_sessions gauge');
  });

  it('cuts a request off with 503 after REQUEST_TIMEOUT_SEC and closes its socket', async () => {
    const { port } = new URL(server.url);
    const startedAt = performance.now();
    const outcome = await new Promise<{ answer: string; closedAt: number }>((resolve) => {
      let answer = '';
      const socket = connect(Number(port), '127.0.0.1', () => {
        socket.write(
          'POST /v1/auth/signin HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n' +
            'Content-Length: 100000\r\n\r\n{"email":"',
        );
      });
      const trickle = setInterval(() => socket.writable && socket.write('a'), 50);
      const done = (closedAt: number) => {
        clearInterval(trickle);
        socket.destroy();
        resolve({ answer, closedAt });
      };
      socket.on('error', () => {});
      socket.on('data', (chunk: Buffer) => {
        answer += chunk.toString('utf8');
      });
      socket.on('close', () => done(performance.now() - startedAt));
      setTimeout(() => done(Number.POSITIVE_INFINITY), 5_000).unref();
    });
    expect(outcome.answer).toMatch(/^HTTP\/1\.1 503 /);
    expect(outcome.answer).toMatch(/\r\nConnection: close\r\n/i);
    expect(outcome.answer).toContain('"code":"request_timeout"');
    expect(outcome.closedAt).toBeGreaterThanOrEqual(900);
    expect(outcome.closedAt).toBeLessThan(2_500);
  });

  it('closes a connection whose headers never end within the timeout', async () => {
    const { port } = new URL(server.url);
    const startedAt = performance.now();
    const closedAt = await new Promise<number>((resolve) => {
      const socket = connect(Number(port), '127.0.0.1', () =>
        socket.write('GET /healthz HTTP/1.1\r\nX-Slow: '),
      );
      const trickle = setInterval(() => socket.writable && socket.write('a'), 50);
      socket.on('error', () => {});
      socket.resume();
      const done = (at: number) => {
        clearInterval(trickle);
        socket.destroy();
        resolve(at);
      };
      socket.on('close', () => done(performance.now() - startedAt));
      setTimeout(() => done(Number.POSITIVE_INFINITY), 5_000).unref();
    });
    expect(closedAt).toBeLessThan(2_500);
  });
});
