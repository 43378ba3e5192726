import { register as globalRegistry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { MetricsRegistry } from './MetricsRegistry.ts';

const HTTP = { method: 'GET', route: '/v1/projects', status: '200' };

describe('MetricsRegistry', () => {
  it('renders counters with HELP, TYPE and labels in the order they were given', async () => {
    const metrics = new MetricsRegistry();
    metrics.inc('requests_total', 'Requests.', HTTP);
    metrics.inc('requests_total', 'Requests.', HTTP, 2);
    metrics.inc('requests_total', 'Requests.', { ...HTTP, status: '404' });
    const text = await metrics.render();
    expect(text).toContain('# HELP requests_total Requests.\n# TYPE requests_total counter\n');
    expect(text).toContain('requests_total{method="GET",route="/v1/projects",status="200"} 3\n');
    expect(text).toContain('requests_total{method="GET",route="/v1/projects",status="404"} 1\n');
  });

  it('renders cumulative latency buckets with le after the series labels, then sum and count', async () => {
    const metrics = new MetricsRegistry();
    metrics.observe('latency_seconds', 'Latency.', HTTP, 0.003);
    metrics.observe('latency_seconds', 'Latency.', HTTP, 0.2);
    metrics.observe('latency_seconds', 'Latency.', HTTP, 60);
    const text = await metrics.render();
    const series = 'method="GET",route="/v1/projects",status="200"';
    expect(text).toContain('# TYPE latency_seconds histogram');
    expect(text).toContain(`latency_seconds_bucket{${series},le="0.001"} 0\n`);
    expect(text).toContain(`latency_seconds_bucket{${series},le="0.005"} 1\n`);
    expect(text).toContain(`latency_seconds_bucket{${series},le="0.25"} 2\n`);
    expect(text).toContain(`latency_seconds_bucket{${series},le="30"} 2\n`);
    expect(text).toContain(`latency_seconds_bucket{${series},le="+Inf"} 3\n`);
    expect(Number(/latency_seconds_sum\{[^}]+\} (\S+)\n/.exec(text)?.[1])).toBeCloseTo(60.203, 9);
    expect(text).toContain(`latency_seconds_count{${series}} 3\n`);
    expect(text).not.toMatch(/\{le=/);
  });

  it('escapes label values as the exposition format requires', async () => {
    const metrics = new MetricsRegistry();
    metrics.inc('odd_total', 'Odd labels.', { route: 'a"b\\c\nd' });
    expect(await metrics.render()).toContain('odd_total{route="a\\"b\\\\c\\nd"} 1');
  });

  it('reads gauges at every scrape, leaves out one that fails, and replaces one registered again', async () => {
    const metrics = new MetricsRegistry();
    let active = 3;
    metrics.gauge('active', 'Active.', () => active);
    metrics.gauge('broken', 'Fails.', () => Promise.reject(new Error('db down')));
    metrics.gauge('replaced', 'First.', () => 1);
    metrics.gauge('replaced', 'Second.', async () => 2);
    let text = await metrics.render();
    expect(text).toContain('# TYPE active gauge\nactive 3\n');
    expect(text).not.toContain('broken');
    expect(text).toContain('# HELP replaced Second.\n# TYPE replaced gauge\nreplaced 2\n');
    expect(text).not.toContain('First.');
    active = 0;
    text = await metrics.render();
    expect(text).toContain('active 0\n');
  });

  it('takes bucket bounds of a histogram of its own at first use', async () => {
    const metrics = new MetricsRegistry();
    metrics.observe('run_seconds', 'Runs.', { status: 'SUCCEEDED' }, 90, [1, 60, 3600]);
    const text = await metrics.render();
    expect(text).toContain('run_seconds_bucket{status="SUCCEEDED",le="60"} 0\n');
    expect(text).toContain('run_seconds_bucket{status="SUCCEEDED",le="3600"} 1\n');
    expect(text).not.toContain('le="0.001"');
  });

  it('reads a labelled gauge at every scrape, one series per key, dropping keys no longer read', async () => {
    const metrics = new MetricsRegistry();
    let counts: Record<string, number> = { QUEUED: 2, RUNNING: 1 };
    metrics.gaugeByLabel('runs', 'Runs by status.', 'status', async () => counts);
    let text = await metrics.render();
    expect(text).toContain('# TYPE runs gauge\nruns{status="QUEUED"} 2\nruns{status="RUNNING"} 1\n');
    counts = { QUEUED: 0 };
    text = await metrics.render();
    expect(text).toContain('runs{status="QUEUED"} 0\n');
    expect(text).not.toContain('RUNNING');
  });

  it('keeps each instance separate and out of prom-client global registry', async () => {
    const a = new MetricsRegistry();
    const b = new MetricsRegistry();
    a.inc('only_in_a_total', 'A.', { x: '1' });
    b.inc('only_in_a_total', 'A.', { x: '2' }, 5);
    expect(await a.render()).toContain('only_in_a_total{x="1"} 1\n');
    expect(await a.render()).not.toContain('x="2"');
    expect(await b.render()).toContain('only_in_a_total{x="2"} 5\n');
    expect(globalRegistry.getSingleMetric('only_in_a_total')).toBeUndefined();
  });

  it('renders an empty registry as a single newline', async () => {
    expect(await new MetricsRegistry().render()).toBe('\n');
  });
});
