import {
  type BrowserContextStore,
  type BrowserProvider,
  type CreateBrowserRequest,
  DomainError,
  type ProviderLiveUrls,
  type ProviderSessionSnapshot,
  type SessionLogEntry,
} from '@browserdeck/domain';
import type { MetricsRegistry } from './MetricsRegistry.ts';

const CALLS = 'browserdeck_provider_calls_total';
const CALLS_HELP = 'Calls to the cloud-browser provider by operation and outcome (ok or an error code).';
const LATENCY = 'browserdeck_provider_call_duration_seconds';
const LATENCY_HELP = 'Time the cloud-browser provider took to answer, by operation.';

/** A BrowserProvider that counts every call's outcome and latency, then delegates. */
export class InstrumentedBrowserProvider implements BrowserProvider {
  private readonly inner: BrowserProvider;
  private readonly metrics: MetricsRegistry;
  /** Present exactly when the wrapped provider has its own live-view URLs (else Browserdeck serves them). */
  readonly liveUrls?: (providerSessionId: string) => Promise<ProviderLiveUrls | null>;

  constructor(deps: { provider: BrowserProvider; metrics: MetricsRegistry }) {
    this.inner = deps.provider;
    this.metrics = deps.metrics;
    const { inner } = this;
    if (inner.liveUrls) {
      this.liveUrls = (id) => this.measure('liveUrls', () => inner.liveUrls?.(id) ?? Promise.resolve(null));
    }
  }

  get name(): string {
    return this.inner.name;
  }

  get regions(): readonly string[] {
    return this.inner.regions;
  }

  get defaultProviderProjectId(): string {
    return this.inner.defaultProviderProjectId;
  }

  /** The wrapped provider's: without it, a provider that cannot load extensions would seem to. */
  get loadsExtensions(): boolean | undefined {
    return this.inner.loadsExtensions;
  }

  /** The wrapped provider's: without it, sessions it started would look held by another instance. */
  get instanceId(): string | undefined {
    return this.inner.instanceId;
  }

  /** The wrapped provider's: without it, sessions of other instances would look out of reach. */
  get reachesOtherInstances(): boolean | undefined {
    return this.inner.reachesOtherInstances;
  }

  /** The wrapped provider's contexts: without it, the context use cases would find none. */
  get contexts(): BrowserContextStore | undefined {
    return this.inner.contexts;
  }

  create(request: CreateBrowserRequest): Promise<ProviderSessionSnapshot> {
    return this.measure('create', () => this.inner.create(request));
  }

  get(providerSessionId: string): Promise<ProviderSessionSnapshot | null> {
    return this.measure('get', () => this.inner.get(providerSessionId));
  }

  release(providerSessionId: string, providerProjectId?: string): Promise<ProviderSessionSnapshot | null> {
    return this.measure('release', () => this.inner.release(providerSessionId, providerProjectId));
  }

  logs(providerSessionId: string): Promise<SessionLogEntry[]> {
    return this.measure('logs', () => this.inner.logs(providerSessionId));
  }

  private async measure<T>(operation: string, call: () => Promise<T>): Promise<T> {
    const startedAt = performance.now();
    let outcome = 'ok';
    try {
      return await call();
    } catch (error) {
      outcome = error instanceof DomainError ? error.code : 'internal';
      throw error;
    } finally {
      const labels = { provider: this.inner.name, operation };
      this.metrics.inc(CALLS, CALLS_HELP, { ...labels, outcome });
      this.metrics.observe(LATENCY, LATENCY_HELP, labels, (performance.now() - startedAt) / 1000);
    }
  }
}
