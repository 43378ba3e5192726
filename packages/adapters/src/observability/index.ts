export { InstrumentedBrowserProvider } from './InstrumentedBrowserProvider.ts';
export { type GaugeReader, LATENCY_BUCKETS_SEC, type Labels, MetricsRegistry } from './MetricsRegistry.ts';
