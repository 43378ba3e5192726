import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect, type Socket } from 'node:net';
import { createTestApp, type TestApp } from '@browserdeck/testing/adapters';
import { afterEach, describe, expect, it } from 'vitest';
import { httpServerOptions } from '../httpServerOptions.ts';

let t: TestApp | undefined;
let server: Server | undefined;
let client: Socket | undefined;
let trickle: NodeJS.Timeout | undefined;
afterEach(async () => {
  clearInterval(trickle);
  client?.destroy();
  server?.closeAllConnections();
  server?.close();
  server = undefined;
  await t?.close();
  t = undefined;
});

/** The test app served by a `node:http` server configured with `httpServerOptions(timeoutMs)`. */
async function serveWithOptions(timeoutMs: number): Promise<string> {
  t = await createTestApp({ overrides: { http: { requestTimeoutMs: timeoutMs } } });
  server = createServer(httpServerOptions(timeoutMs), t.app.callback());
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/**
 * Opens a raw connection, sends `head`, and keeps trickling a byte every 20 ms (more of a body, or
 * more of a header that never ends). Resolves what the server wrote and when the server closed the socket
 * (`Infinity` when it had not after 3 s).
 */
function slowRequest(
  baseUrl: string,
  head: string,
): Promise<{ answer: string; answeredAt: number; closedAt: number }> {
  const { port } = new URL(baseUrl);
  const startedAt = performance.now();
  return new Promise((resolve) => {
    let answer = '';
    let answeredAt = 0;
    client = connect(Number(port), '127.0.0.1', () => {
      client?.write(head);
      trickle = setInterval(() => client?.writable && client.write('a'), 20);
    });
    client.on('error', () => {});
    client.on('data', (chunk: Buffer) => {
      answeredAt ||= performance.now() - startedAt;
      answer += chunk.toString('utf8');
    });
    const done = (closedAt: number) => {
      clearInterval(trickle);
      resolve({ answer, answeredAt, closedAt });
    };
    client.on('close', () => done(performance.now() - startedAt));
    // A socket still open after 3 s counts as never closed.
    setTimeout(() => done(Number.POSITIVE_INFINITY), 3_000).unref();
  });
}

const SIGNIN_HEAD =
  'POST /v1/auth/signin HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n' +
  'Content-Length: 100000\r\n\r\n{"email":"';

describe('request cut-off (http-api.md §10)', () => {
  it('answers a request still sending its body after the timeout 503, then closes its socket', async () => {
    t = await createTestApp({ overrides: { http: { requestTimeoutMs: 300 } } });
    const { answer, answeredAt, closedAt } = await slowRequest(t.baseUrl, SIGNIN_HEAD);
    const [head = '', body = ''] = answer.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 503 /);
    expect(head).toMatch(/\r\nConnection: close\r\n/i);
    expect(JSON.parse(body)).toMatchObject({ status: 503, code: 'request_timeout' });
    expect(answeredAt).toBeGreaterThanOrEqual(250);
    // Closed right after the answer: not kept until Node's own request timeout (300 s by default).
    expect(closedAt - answeredAt).toBeLessThan(1_000);
  });

  it('keeps connections of requests answered in time open for the next request', async () => {
    t = await createTestApp({ overrides: { http: { requestTimeoutMs: 300 } } });
    const first = await t.request('/healthz');
    expect(first.headers.get('connection')).not.toBe('close');
  });

  it('with httpServerOptions, closes a connection whose headers never end (408 from Node)', async () => {
    const baseUrl = await serveWithOptions(300);
    const { answer, closedAt } = await slowRequest(baseUrl, 'GET /healthz HTTP/1.1\r\nX-Slow: a');
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(closedAt).toBeLessThan(1_500);
  });

  it('with httpServerOptions, closes a connection whose body still trickles after an early answer', async () => {
    const baseUrl = await serveWithOptions(300);
    // No bearer token: 401 before the body is read; Node would otherwise drain it for 300 s.
    const head =
      'POST /v1/projects HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n' +
      'Content-Length: 100000\r\n\r\n{"name":"';
    const { answer, closedAt } = await slowRequest(baseUrl, head);
    expect(answer).toMatch(/^HTTP\/1\.1 401 /);
    expect(closedAt).toBeLessThan(1_500);
  });

  it('gives Node a limit above the app cut-off, so the app answers first, and checks at least every second', () => {
    expect(httpServerOptions()).toEqual({
      headersTimeout: 30_000,
      requestTimeout: 35_000,
      connectionsCheckingInterval: 1_000,
    });
    expect(httpServerOptions(300)).toEqual({
      headersTimeout: 300,
      requestTimeout: 600,
      connectionsCheckingInterval: 50,
    });
  });
});
