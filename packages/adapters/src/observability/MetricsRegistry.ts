/** Label values of one series, e.g. `{ method: 'GET', route: '/v1/projects', status: '200' }`. */
export type Labels = Record<string, string>;

/** Upper bounds, in seconds, of the latency histogram buckets. */
export const LATENCY_BUCKETS_SEC = [
  0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30,
];

interface Histogram {
  labels: Labels;
  counts: number[];
  sum: number;
  count: number;
}

/** A gauge read when metrics are scraped. */
export type GaugeReader = () => Promise<number> | number;

/**
 * A small in-process Prometheus registry: counters, latency histograms and gauges read on scrape,
 * rendered in the text exposition format (version 0.0.4). Series are created on first use.
 */
export class MetricsRegistry {
  private readonly counters = new Map<
    string,
    { help: string; series: Map<string, { labels: Labels; value: number }> }
  >();
  private readonly histograms = new Map<string, { help: string; series: Map<string, Histogram> }>();
  private readonly gauges = new Map<string, { help: string; read: GaugeReader }>();

  /** Adds `by` to the counter `name` for `labels`. */
  inc(name: string, help: string, labels: Labels, by = 1): void {
    let metric = this.counters.get(name);
    if (!metric) {
      metric = { help, series: new Map() };
      this.counters.set(name, metric);
    }
    const key = labelKey(labels);
    const series = metric.series.get(key);
    if (series) series.value += by;
    else metric.series.set(key, { labels, value: by });
  }

  /** Records one observation of `seconds` in the histogram `name`. */
  observe(name: string, help: string, labels: Labels, seconds: number): void {
    let metric = this.histograms.get(name);
    if (!metric) {
      metric = { help, series: new Map() };
      this.histograms.set(name, metric);
    }
    const key = labelKey(labels);
    let series = metric.series.get(key);
    if (!series) {
      series = { labels, counts: LATENCY_BUCKETS_SEC.map(() => 0), sum: 0, count: 0 };
      metric.series.set(key, series);
    }
    for (let i = 0; i < LATENCY_BUCKETS_SEC.length; i++)
      if (seconds <= LATENCY_BUCKETS_SEC[i]!) series.counts[i]!++;
    series.sum += seconds;
    series.count++;
  }

  /** Registers a gauge whose value is read at every scrape. */
  gauge(name: string, help: string, read: GaugeReader): void {
    this.gauges.set(name, { help, read });
  }

  /** Everything in Prometheus text format. A gauge that fails to read is left out. */
  async render(): Promise<string> {
    const lines: string[] = [];
    for (const [name, metric] of this.counters) {
      lines.push(`# HELP ${name} ${metric.help}`, `# TYPE ${name} counter`);
      for (const s of metric.series.values()) lines.push(`${name}${format(s.labels)} ${s.value}`);
    }
    for (const [name, metric] of this.histograms) {
      lines.push(`# HELP ${name} ${metric.help}`, `# TYPE ${name} histogram`);
      for (const s of metric.series.values()) {
        LATENCY_BUCKETS_SEC.forEach((le, i) => {
          lines.push(`${name}_bucket${format({ ...s.labels, le: String(le) })} ${s.counts[i]}`);
        });
        lines.push(`${name}_bucket${format({ ...s.labels, le: '+Inf' })} ${s.count}`);
        lines.push(`${name}_sum${format(s.labels)} ${s.sum}`, `${name}_count${format(s.labels)} ${s.count}`);
      }
    }
    for (const [name, metric] of this.gauges) {
      const value = await Promise.resolve()
        .then(metric.read)
        .catch(() => undefined);
      if (value === undefined) continue;
      lines.push(`# HELP ${name} ${metric.help}`, `# TYPE ${name} gauge`, `${name} ${value}`);
    }
    return `${lines.join('\n')}\n`;
  }
}

/** One series' identity, its labels in name order (built twice per HTTP request, so kept cheap). */
function labelKey(labels: Labels): string {
  let key = '';
  for (const name of Object.keys(labels).sort()) key += `${name}\u0000${labels[name]}\u0001`;
  return key;
}

function format(labels: Labels): string {
  const parts = Object.entries(labels).map(
    ([k, v]) => `${k}="${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`,
  );
  return parts.length ? `{${parts.join(',')}}` : '';
}
