import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import Koa from 'koa';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MetricsRegistry } from '../../../../observability/MetricsRegistry.ts';
import type { PassthroughEndpoint, PassthroughRequest } from '../../../../shared/PassthroughEndpoint.ts';
import { webdriverRoutes } from '../../api/webdriver/webdriverRoutes.ts';
import { errorHandler } from '../middleware/errorHandler.ts';
import { requestContext } from '../middleware/requestContext.ts';
import { requestTimeout } from '../middleware/requestTimeout.ts';
import { servePassthroughs } from './servePassthroughs.ts';

/** An endpoint that echoes what it was handed, after `delayMs`; `refuse` names a session it refuses. */
const seen: PassthroughRequest[] = [];
const endpoint: PassthroughEndpoint = {
  path: '/v1/test/sessions/{provider_session_id}/webdriver/{signing_key}',
  operationId: 'driveTestSession',
  summary: 'test',
  description: 'test',
  secretParams: ['signing_key'],
  serve(request) {
    if (request.params.provider_session_id === 'gone')
      return { code: 'session_ended', detail: 'The session has ended.' };
    seen.push(request);
    let body = '';
    request.req.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    request.req.on('end', () =>
      setTimeout(() => {
        request.res.writeHead(200, { 'Content-Type': 'application/json' });
        request.res.end(JSON.stringify({ value: { subpath: request.subpath, body } }));
      }, 150),
    );
    return true;
  },
};

describe('servePassthroughs', () => {
  let server: Server;
  let base: string;
  const lines: Array<Record<string, unknown>> = [];

  beforeAll(async () => {
    const log = pino(
      { level: 'info' },
      new Writable({
        write(chunk, _encoding, done) {
          lines.push(JSON.parse(String(chunk)) as Record<string, unknown>);
          done();
        },
      }),
    );
    const app = new Koa();
    app.use(requestContext(log, new MetricsRegistry()));
    app.use(errorHandler());
    app.use(servePassthroughs(webdriverRoutes([endpoint])));
    // Shorter than the endpoint takes: it must not cut off a passthrough request.
    app.use(requestTimeout(50));
    app.use((ctx) => {
      ctx.status = 418;
    });
    server = createServer(app.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('hands a request below the endpoint to it raw, body unread, without the request cut-off', async () => {
    const response = await fetch(`${base}/v1/test/sessions/s1/webdriver/SECRET/session/x/url?ignored=1`, {
      method: 'POST',
      body: '{"url":"about:blank"}',
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toBeTruthy();
    expect(await response.json()).toEqual({
      value: { subpath: '/session/x/url', body: '{"url":"about:blank"}' },
    });
    expect(seen.at(-1)?.params).toEqual({ provider_session_id: 's1', signing_key: 'SECRET' });
  });

  it('logs the request with the signing key hidden and the route’s status', async () => {
    await fetch(`${base}/v1/test/sessions/s2/webdriver/SECRET/status`);
    const line = lines.find((l) => l.msg === 'request completed' && String(l.path).includes('/s2/'));
    expect(line).toMatchObject({
      path: '/v1/test/sessions/s2/webdriver/{signing_key}/status',
      route: '/v1/test/sessions/{provider_session_id}/webdriver/{signing_key}/session/{session_id}/{command}',
      status: 200,
    });
    expect(JSON.stringify(lines)).not.toContain('SECRET');
  });

  it('answers a refusal in the route’s dialect (WebDriver’s error shape)', async () => {
    const response = await fetch(`${base}/v1/test/sessions/gone/webdriver/k/session/gone/url`);
    expect(response.status).toBe(409);
    expect(await response.json()).toEqual({
      value: { error: 'invalid session id', message: 'The session has ended.', stacktrace: '' },
    });
  });

  it('leaves every other path to the rest of the app', async () => {
    expect((await fetch(`${base}/v1/test/sessions/s1/webdriverX/k`)).status).toBe(418);
    expect((await fetch(`${base}/v1/test/sessions/s1/connect`)).status).toBe(418);
  });
});
