import {
  type BrowserProvider,
  type CreateBrowserRequest,
  DomainError,
  type ProviderLiveUrls,
  type ProviderSessionSnapshot,
  type SessionLogEntry,
  type UploadedSessionFile,
} from '@browserdeck/domain';
import { DelegatingBrowserProvider } from '../browsers/DelegatingBrowserProvider.ts';
import type { MetricsRegistry } from './MetricsRegistry.ts';

const CALLS = 'browserdeck_provider_calls_total';
const CALLS_HELP = 'Calls to the cloud-browser provider by operation and outcome (ok or an error code).';
const LATENCY = 'browserdeck_provider_call_duration_seconds';
const LATENCY_HELP = 'Time the cloud-browser provider took to answer, by operation.';

/** A BrowserProvider that counts every call's outcome and latency, then delegates (the port's properties are the wrapped provider's). */
export class InstrumentedBrowserProvider extends DelegatingBrowserProvider {
  private readonly metrics: MetricsRegistry;
  /** Present exactly when the wrapped provider has its own live-view URLs (else Browserdeck serves them). */
  readonly liveUrls?: (providerSessionId: string) => Promise<ProviderLiveUrls | null>;

  constructor(deps: { provider: BrowserProvider; metrics: MetricsRegistry }) {
    super(deps.provider);
    this.metrics = deps.metrics;
    const { inner } = this;
    if (inner.liveUrls) {
      this.liveUrls = (id) => this.measure('liveUrls', () => inner.liveUrls?.(id) ?? Promise.resolve(null));
    }
  }

  override create(request: CreateBrowserRequest): Promise<ProviderSessionSnapshot> {
    return this.measure('create', () => this.inner.create(request));
  }

  override get(providerSessionId: string): Promise<ProviderSessionSnapshot | null> {
    return this.measure('get', () => this.inner.get(providerSessionId));
  }

  override release(
    providerSessionId: string,
    providerProjectId?: string,
  ): Promise<ProviderSessionSnapshot | null> {
    return this.measure('release', () => this.inner.release(providerSessionId, providerProjectId));
  }

  override logs(providerSessionId: string): Promise<SessionLogEntry[]> {
    return this.measure('logs', () => this.inner.logs(providerSessionId));
  }

  protected override forwardDownloads(providerSessionId: string): Promise<AsyncIterable<Uint8Array> | null> {
    // Measures the answer that opens the zip, not its streaming.
    return this.measure('downloads', () => super.forwardDownloads(providerSessionId));
  }

  protected override forwardUpload(
    providerSessionId: string,
    file: { readonly name: string; readonly content: AsyncIterable<Uint8Array> },
  ): Promise<UploadedSessionFile | null> {
    return this.measure('upload', () => super.forwardUpload(providerSessionId, file));
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
