import type {
  BrowserContextStore,
  BrowserProvider,
  CreateBrowserRequest,
  ProviderSessionSnapshot,
  SessionLogEntry,
} from '@browserdeck/domain';

/**
 * A provider wrapping another (measuring it, routing it): every property of the port is the wrapped
 * provider's, read through, and every call is passed to it unless a subclass overrides it. One place
 * forwards them all, so a wrapper cannot forget one (a provider that cannot load extensions would
 * seem to, sessions it started would look held by another instance, contexts would be missing).
 * `liveUrls` is the subclass's to offer, since it is present only when the wrapped provider has it.
 */
export abstract class DelegatingBrowserProvider<P extends BrowserProvider = BrowserProvider>
  implements BrowserProvider
{
  protected readonly inner: P;

  constructor(inner: P) {
    this.inner = inner;
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

  get loadsExtensions(): boolean | undefined {
    return this.inner.loadsExtensions;
  }

  get instanceId(): string | undefined {
    return this.inner.instanceId;
  }

  get reachesOtherInstances(): boolean | undefined {
    return this.inner.reachesOtherInstances;
  }

  get contexts(): BrowserContextStore | undefined {
    return this.inner.contexts;
  }

  create(request: CreateBrowserRequest): Promise<ProviderSessionSnapshot> {
    return this.inner.create(request);
  }

  get(providerSessionId: string): Promise<ProviderSessionSnapshot | null> {
    return this.inner.get(providerSessionId);
  }

  release(providerSessionId: string, providerProjectId?: string): Promise<ProviderSessionSnapshot | null> {
    return this.inner.release(providerSessionId, providerProjectId);
  }

  logs(providerSessionId: string): Promise<SessionLogEntry[]> {
    return this.inner.logs(providerSessionId);
  }
}
