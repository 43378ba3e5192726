import { Counter, Gauge, Histogram, type Metric, Registry } from 'prom-client';

/** Label values of one series, e.g. `{ method: 'GET', route: '/v1/projects', status: '200' }`. */
export type Labels = Record<string, string>;

/** Upper bounds, in seconds, of the latency histogram buckets. */
export const LATENCY_BUCKETS_SEC = [
  0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30,
];

/** A gauge read when metrics are scraped. */
export type GaugeReader = () => Promise<number> | number;

/**
 * Browserdeck's metrics, kept in a prom-client `Registry` of its own (never prom-client's global one,
 * so two apps in one process do not share series): counters, latency histograms and gauges read on
 * scrape, rendered by prom-client in the Prometheus text format (version 0.0.4). A metric is created
 * on first use, with the label names of that first use.
 */
export class MetricsRegistry {
  /** The prom-client registry behind this one, e.g. to merge with a host's own metrics. */
  readonly registry = new Registry();
  private readonly counters = new Map<string, Counter>();
  private readonly histograms = new Map<string, Histogram>();

  /** Adds `by` to the counter `name` for `labels`. */
  inc(name: string, help: string, labels: Labels, by = 1): void {
    let counter = this.counters.get(name);
    if (!counter) {
      counter = new Counter({ name, help, labelNames: Object.keys(labels), registers: [this.registry] });
      this.counters.set(name, counter);
    }
    counter.inc(labels, by);
  }

  /**
   * Records one observation of `seconds` in the histogram `name`, whose bucket bounds are `buckets`
   * (taken at first use; default `LATENCY_BUCKETS_SEC`).
   */
  observe(
    name: string,
    help: string,
    labels: Labels,
    seconds: number,
    buckets: readonly number[] = LATENCY_BUCKETS_SEC,
  ): void {
    let histogram = this.histograms.get(name);
    if (!histogram) {
      const labelNames = Object.keys(labels);
      histogram = new Histogram({ name, help, labelNames, buckets: [...buckets], registers: [] });
      this.registry.registerMetric(withBucketBoundLast(name, histogram));
      this.histograms.set(name, histogram);
    }
    histogram.observe(labels, seconds);
  }

  /** Registers a gauge whose value is read at every scrape; a second call with the same name replaces it. */
  gauge(name: string, help: string, read: GaugeReader): void {
    this.registry.removeSingleMetric(name);
    const gauge: Gauge = new Gauge({
      name,
      help,
      registers: [this.registry],
      collect: async () => gauge.set(await read()),
    });
  }

  /**
   * Registers a gauge with one label, read at every scrape: one series per key `read` returns (e.g.
   * runs by `status`). A second call with the same name replaces it.
   */
  gaugeByLabel(
    name: string,
    help: string,
    label: string,
    read: () => Promise<Record<string, number>> | Record<string, number>,
  ): void {
    this.registry.removeSingleMetric(name);
    const gauge: Gauge = new Gauge({
      name,
      help,
      labelNames: [label],
      registers: [this.registry],
      collect: async () => {
        const values = await read();
        gauge.reset();
        for (const [value, count] of Object.entries(values)) gauge.set({ [label]: value }, count);
      },
    });
  }

  /** Everything in Prometheus text format. A gauge that fails to read is left out. */
  async render(): Promise<string> {
    const names = this.registry.getMetricsAsArray().map((metric) => metric.name);
    const rendered = await Promise.all(
      names.map((name) => this.registry.getSingleMetricAsString(name).catch(() => undefined)),
    );
    // The separators of prom-client's own `Registry.metrics()`, which fails whole when one gauge fails.
    return `${rendered.filter((text) => text !== undefined).join('\n\n')}\n`;
  }
}

/**
 * `histogram` as the registry renders it, with `le` after the series' own labels, where the reference Go
 * client and Browserdeck's documented output put it (prom-client puts it first; Prometheus reads both).
 */
function withBucketBoundLast(name: string, histogram: Histogram): Metric {
  const view = {
    name,
    get: async () => {
      const data = await histogram.get();
      return {
        ...data,
        values: data.values.map((value) => {
          const { le, ...labels } = value.labels as Record<string, string | number>;
          return { ...value, labels: le === undefined ? labels : { ...labels, le } };
        }),
      };
    },
    reset: () => histogram.reset(),
  };
  return view as unknown as Metric;
}
