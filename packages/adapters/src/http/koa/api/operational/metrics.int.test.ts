import { browserRequest } from '@browserdeck/testing';
import { createTestApp, type TestApp } from '@browserdeck/testing/adapters';
import { afterEach, describe, expect, it } from 'vitest';
import { InstrumentedBrowserProvider } from '../../../../observability/InstrumentedBrowserProvider.ts';
import { MetricsRegistry } from '../../../../observability/MetricsRegistry.ts';

let t: TestApp;
afterEach(() => t?.close());

describe('/metrics', () => {
  it('counts requests by method, route template and status, with latency histograms', async () => {
    t = await createTestApp();
    const user = await t.signUpAndIn();
    await t.request('/v1/projects', { token: user.accessToken });
    await t.request('/v1/projects', { token: user.accessToken });
    await t.request('/v1/projects');
    await t.request('/nowhere/at/all');
    const res = await t.request('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = await res.text();
    expect(text).toContain('# TYPE browserdeck_http_requests_total counter');
    expect(text).toContain(
      'browserdeck_http_requests_total{method="GET",route="/v1/projects",status="200"} 2',
    );
    expect(text).toContain(
      'browserdeck_http_requests_total{method="GET",route="/v1/projects",status="401"} 1',
    );
    expect(text).toMatch(/browserdeck_http_requests_total\{method="GET",route="unmatched",status="404"\} 1/);
    expect(text).toContain(
      'browserdeck_http_request_duration_seconds_count{method="GET",route="/v1/projects",status="200"} 2',
    );
    expect(text).toContain(
      'browserdeck_http_request_duration_seconds_bucket{method="GET",route="/v1/projects",status="200",le="+Inf"} 2',
    );
  });

  it('renders provider call outcomes and gauges read at scrape time', async () => {
    const metrics = new MetricsRegistry();
    t = await createTestApp();
    const provider = new InstrumentedBrowserProvider({ provider: t.provider, metrics });
    const request = browserRequest({
      sessionId: 's',
      projectId: 'p',
      providerProjectId: 'x',
      timeoutSec: 60,
    });
    await provider.sessions.create(request);
    t.provider.failNext('create', 'provider_rate_limited', 3);
    await expect(provider.sessions.create(request)).rejects.toMatchObject({ code: 'provider_rate_limited' });
    let active = 7;
    metrics.gauge('browserdeck_active_sessions', 'Sessions PENDING or RUNNING.', () => active);
    metrics.gauge('browserdeck_broken', 'A gauge that fails.', () => Promise.reject(new Error('db down')));
    let text = await metrics.render();
    expect(text).toContain(
      'browserdeck_provider_calls_total{provider="browserbase",operation="create",outcome="ok"} 1',
    );
    expect(text).toContain(
      'browserdeck_provider_calls_total{provider="browserbase",operation="create",outcome="provider_rate_limited"} 1',
    );
    expect(text).toContain(
      'browserdeck_provider_call_duration_seconds_count{provider="browserbase",operation="create"} 2',
    );
    expect(text).toContain('browserdeck_active_sessions 7');
    expect(text).not.toContain('browserdeck_broken');
    active = 2;
    text = await metrics.render();
    expect(text).toContain('browserdeck_active_sessions 2');
  });
});
