import {
  type BrowserContextStore,
  type CreateBrowserRequest,
  ProviderError,
  type ProviderLiveUrls,
  type ProviderSessionSnapshot,
  type SessionLogEntry,
} from '@browserdeck/domain';
import type { ComposableBrowserProvider, ProviderCapabilities } from '../browsers/ProviderCapabilities.ts';
import type { InstanceClient } from './InstanceClient.ts';
import type { InstanceDirectory } from './InstanceDirectory.ts';
import type { InstanceRecord } from './InstanceRegistry.ts';

/**
 * The configured provider, reaching the sessions other instances hold (`reachesOtherInstances`):
 * `get`, `release` and `logs` about a session whose browser another live instance holds are carried
 * to that instance (`InstanceClient`), which asks its own provider; everything else is the inner
 * provider's. A holder that has gone silent is not called: `get` is `provider_unavailable` (the
 * session is answered as stored until the survivors end it `ERROR`), `logs` are none (they went with
 * it), and `release` asks the inner provider (a Grid session is freed from any instance) and reports
 * the session `ERROR`, or is `provider_unavailable` when the inner provider does not know it.
 */
export class InstanceRoutedProvider implements ComposableBrowserProvider {
  readonly reachesOtherInstances = true;
  readonly liveUrls?: (providerSessionId: string) => Promise<ProviderLiveUrls | null>;
  private readonly inner: ComposableBrowserProvider;
  private readonly directory: InstanceDirectory;
  private readonly client: InstanceClient;

  constructor(deps: {
    provider: ComposableBrowserProvider;
    directory: InstanceDirectory;
    client: InstanceClient;
  }) {
    this.inner = deps.provider;
    this.directory = deps.directory;
    this.client = deps.client;
    const { inner } = this;
    if (inner.liveUrls) this.liveUrls = (id) => inner.liveUrls?.(id) ?? Promise.resolve(null);
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

  get instanceId(): string | undefined {
    return this.inner.instanceId;
  }

  get loadsExtensions(): boolean | undefined {
    return this.inner.loadsExtensions;
  }

  get contexts(): BrowserContextStore | undefined {
    return this.inner.contexts;
  }

  get capabilities(): ProviderCapabilities | undefined {
    return this.inner.capabilities;
  }

  create(request: CreateBrowserRequest): Promise<ProviderSessionSnapshot> {
    return this.inner.create(request);
  }

  async get(providerSessionId: string): Promise<ProviderSessionSnapshot | null> {
    const holder = await this.holder(providerSessionId);
    if (!holder) return this.inner.get(providerSessionId);
    if (holder.silent) throw lost(holder.id, this.directory.lostAfterMs);
    return this.client.get(holder.record, providerSessionId);
  }

  async release(
    providerSessionId: string,
    providerProjectId?: string,
  ): Promise<ProviderSessionSnapshot | null> {
    const holder = await this.holder(providerSessionId);
    if (!holder) return this.inner.release(providerSessionId, providerProjectId);
    if (!holder.silent) return this.client.release(holder.record, providerSessionId, providerProjectId);
    const released = await this.inner.release(providerSessionId, providerProjectId);
    if (!released) throw lost(holder.id, this.directory.lostAfterMs);
    return { ...released, status: 'ERROR' };
  }

  async logs(providerSessionId: string): Promise<SessionLogEntry[]> {
    const holder = await this.holder(providerSessionId);
    if (!holder) return this.inner.logs(providerSessionId);
    return holder.silent ? [] : this.client.logs(holder.record, providerSessionId);
  }

  /** The other instance holding the session, when one does: its record, or silent when it is gone. */
  private async holder(
    providerSessionId: string,
  ): Promise<{ id: string; silent: false; record: InstanceRecord } | { id: string; silent: true } | null> {
    const id = await this.directory.otherHolder({ providerSessionId });
    if (id === undefined) return null;
    const record = await this.directory.find(id);
    if (!record || this.directory.isSilent(record)) return { id, silent: true };
    return { id, silent: false, record };
  }
}

function lost(instanceId: string, lostAfterMs: number): ProviderError {
  return new ProviderError(
    'provider_unavailable',
    `The instance holding this session's browser (${instanceId}) has stopped answering; ` +
      `its sessions are ended ERROR within ${Math.ceil(lostAfterMs / 1000)} s of its last heartbeat.`,
  );
}
