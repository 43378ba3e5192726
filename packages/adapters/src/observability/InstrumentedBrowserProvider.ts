import { DomainError } from '@browserdeck/domain';
import type { AdapterCapabilities, ComposableBrowserProvider } from '../browsers/ProviderCapabilities.ts';
import { type MethodWrapper, WrappingProvider } from '../browsers/wrapMethods.ts';
import type { MetricsRegistry } from './MetricsRegistry.ts';

const CALLS = 'browserdeck_provider_calls_total';
const CALLS_HELP = 'Calls to the cloud-browser provider by operation and outcome (ok or an error code).';
const LATENCY = 'browserdeck_provider_call_duration_seconds';
const LATENCY_HELP = 'Time the cloud-browser provider took to answer, by operation.';

/**
 * The capabilities whose calls go to the provider and are measured, each call labelled by its
 * method (`create`, `downloads`, `liveUrls`, …); the others (its context and extension stores, what
 * this process serves for it) pass through.
 */
const MEASURED = ['files', 'liveView'] as const satisfies ReadonlyArray<keyof AdapterCapabilities>;

/**
 * A provider that counts every call's outcome and latency, then passes it on: its `sessions` and
 * its measured capabilities (`MEASURED`) are the wrapped provider's, wrapped method by method, so a
 * method a capability gains is measured without editing this class. A call answering a stream
 * (`downloads`) is measured up to the answer that opens it, not its streaming.
 */
export class InstrumentedBrowserProvider extends WrappingProvider {
  constructor(deps: { provider: ComposableBrowserProvider; metrics: MetricsRegistry }) {
    const measure = measuring(deps.metrics, deps.provider.name);
    super(deps.provider, {
      sessions: measure,
      capabilities: Object.fromEntries(MEASURED.map((name) => [name, measure])),
    });
  }
}

/** Counts a call's outcome and times it, labelled by the provider and the method (`operation`). */
function measuring(metrics: MetricsRegistry, provider: string): MethodWrapper {
  return async (operation, _args, call) => {
    const startedAt = performance.now();
    let outcome = 'ok';
    try {
      return await call();
    } catch (error) {
      outcome = error instanceof DomainError ? error.code : 'internal';
      throw error;
    } finally {
      const labels = { provider, operation };
      metrics.inc(CALLS, CALLS_HELP, { ...labels, outcome });
      metrics.observe(LATENCY, LATENCY_HELP, labels, (performance.now() - startedAt) / 1000);
    }
  };
}
