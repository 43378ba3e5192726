import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  assertProblem,
  createTestApp,
  type TestApp,
  type TestAppOptions,
} from '@browserdeck/testing/adapters';
import { afterEach, describe, expect, it } from 'vitest';
import type { OpenApiDocument } from '../../kernel/openapi/OpenApiDocument.ts';

let t: TestApp | undefined;
let metricsServer: Server | undefined;
afterEach(async () => {
  metricsServer?.closeAllConnections();
  metricsServer?.close();
  metricsServer = undefined;
  await t?.close();
  t = undefined;
});

const TOKEN = 'metrics-token-0123456789abcdef';

async function start(options?: TestAppOptions): Promise<TestApp> {
  t = await createTestApp(options);
  return t;
}

async function documentedPaths(app: TestApp): Promise<string[]> {
  return Object.keys(((await (await app.request('/openapi.json')).json()) as OpenApiDocument).paths);
}

describe('/metrics behind METRICS_TOKEN', () => {
  it('answers 401 problem without the token, with a wrong one, or with an access token; 200 with it', async () => {
    const app = await start({ overrides: { http: { metricsEndpoint: { token: TOKEN } } } });
    const user = await app.signUpAndIn();
    for (const authorization of [
      undefined,
      'Bearer',
      `Bearer ${TOKEN}x`,
      `Bearer ${TOKEN.slice(0, -1)}X`,
      `Basic ${TOKEN}`,
      `Bearer ${user.accessToken}`,
    ]) {
      const res = await app.request(
        '/metrics',
        authorization ? { headers: { Authorization: authorization } } : {},
      );
      await assertProblem(res, 401, 'unauthorized');
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
    }
    const res = await app.request('/metrics', { headers: { Authorization: `bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain(
      'browserdeck_http_requests_total{method="GET",route="/metrics",status="401"} 6',
    );
  });

  it('documents the token and the 401 in the OpenAPI document', async () => {
    const app = await start({ overrides: { http: { metricsEndpoint: { token: TOKEN } } } });
    const doc = (await (await app.request('/openapi.json')).json()) as OpenApiDocument;
    const operation = doc.paths['/metrics']?.get;
    expect(operation?.description).toMatch(/Bearer <METRICS_TOKEN>/);
    expect(Object.keys(operation?.responses ?? {})).toContain('401');
  });

  it('stays open without a token', async () => {
    const app = await start();
    expect((await app.request('/metrics')).status).toBe(200);
  });
});

describe('/metrics on a separate address (METRICS_LISTEN)', () => {
  async function serveMetrics(app: TestApp): Promise<string> {
    metricsServer = createServer(app.browserdeck.http.createMetricsApp().callback());
    metricsServer.listen(0, '127.0.0.1');
    await once(metricsServer, 'listening');
    return `http://127.0.0.1:${(metricsServer.address() as AddressInfo).port}`;
  }

  it('is a 404 on the API app, left out of its document, and served by the metrics app', async () => {
    const app = await start({ overrides: { http: { metricsEndpoint: { separate: true } } } });
    for (const path of ['/metrics', '/Metrics', '/metrics/']) {
      await assertProblem(await app.request(path), 404, 'not_found');
    }
    expect(await documentedPaths(app)).not.toContain('/metrics');
    await app.request('/healthz');
    const metricsUrl = await serveMetrics(app);
    const res = await fetch(`${metricsUrl}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-request-id')).toBeTruthy();
    // The API app's requests, counted in the registry both apps share.
    expect(await res.text()).toContain(
      'browserdeck_http_requests_total{method="GET",route="/healthz",status="200"} 1',
    );
    const elsewhere = await fetch(`${metricsUrl}/healthz`);
    await assertProblem(elsewhere, 404, 'not_found');
    await assertProblem(await fetch(`${metricsUrl}/v1/projects`), 404, 'not_found');
  });

  it('asks for the token there too when both are configured', async () => {
    const app = await start({
      overrides: { http: { metricsEndpoint: { separate: true, token: TOKEN } } },
    });
    const metricsUrl = await serveMetrics(app);
    await assertProblem(await fetch(`${metricsUrl}/metrics`), 401, 'unauthorized');
    const res = await fetch(`${metricsUrl}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
  });
});
