import type {
  BrowserContextStore,
  BrowserProvider,
  CreateBrowserRequest,
  ProviderExtensionStore,
  ProviderSessionSnapshot,
  ProxyBytesDelta,
  SessionLogEntry,
  UploadedSessionFile,
} from '@browserdeck/domain';

/** A file handed to `BrowserProvider.upload`. */
type UploadFile = { readonly name: string; readonly content: AsyncIterable<Uint8Array> };

/**
 * A provider wrapping another (measuring it, routing it): every property of the port is the wrapped
 * provider's, read through, and every call is passed to it unless a subclass overrides it. One place
 * forwards them all, so a wrapper cannot forget one (a provider that cannot load extensions would
 * seem to, sessions it started would look held by another instance, contexts would be missing).
 * `liveUrls` is the subclass's to offer, since it is present only when the wrapped provider has it.
 * `downloads` and `upload` are present exactly when the wrapped provider has them, and go through
 * `forwardDownloads` / `forwardUpload`, which a subclass overrides to measure or route them.
 * `takeProxyBytes` is present exactly when the wrapped provider meters proxy bytes itself: what this
 * instance's own browsers metered, never routed.
 */
export abstract class DelegatingBrowserProvider<P extends BrowserProvider = BrowserProvider>
  implements BrowserProvider
{
  protected readonly inner: P;
  readonly downloads?: (providerSessionId: string) => Promise<AsyncIterable<Uint8Array> | null>;
  readonly upload?: (providerSessionId: string, file: UploadFile) => Promise<UploadedSessionFile | null>;
  readonly takeProxyBytes?: () => readonly ProxyBytesDelta[];

  constructor(inner: P) {
    this.inner = inner;
    if (inner.downloads) this.downloads = (id) => this.forwardDownloads(id);
    if (inner.upload) this.upload = (id, file) => this.forwardUpload(id, file);
    if (inner.takeProxyBytes) this.takeProxyBytes = () => inner.takeProxyBytes?.() ?? [];
  }

  /** `downloads`, when the wrapped provider has it: passed on. */
  protected forwardDownloads(providerSessionId: string): Promise<AsyncIterable<Uint8Array> | null> {
    return this.inner.downloads?.(providerSessionId) ?? Promise.resolve(null);
  }

  /** `upload`, when the wrapped provider has it: passed on. */
  protected forwardUpload(providerSessionId: string, file: UploadFile): Promise<UploadedSessionFile | null> {
    return this.inner.upload?.(providerSessionId, file) ?? Promise.resolve(null);
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

  get extensionsHint(): string | undefined {
    return this.inner.extensionsHint;
  }

  get routesProxies(): boolean | undefined {
    return this.inner.routesProxies;
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

  get extensions(): ProviderExtensionStore | undefined {
    return this.inner.extensions;
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
