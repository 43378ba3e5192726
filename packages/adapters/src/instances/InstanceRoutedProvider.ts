import {
  ProviderError,
  type ProviderLiveUrls,
  type ProviderSessionSnapshot,
  type SessionLogEntry,
  type UploadedSessionFile,
} from '@browserdeck/domain';
import { DelegatingBrowserProvider } from '../browsers/DelegatingBrowserProvider.ts';
import type { ComposableBrowserProvider, ProviderCapabilities } from '../browsers/ProviderCapabilities.ts';
import type { InstanceClient } from './InstanceClient.ts';
import type { InstanceDirectory } from './InstanceDirectory.ts';

/**
 * The configured provider, reaching the sessions other instances hold (`reachesOtherInstances`):
 * `get`, `release`, `logs`, `downloads` and `upload` about a session whose browser another live
 * instance holds are carried
 * to that instance (`InstanceClient`), which asks its own provider; everything else is the inner
 * provider's. A holder that has gone silent is not called: `get` is `provider_unavailable` (the
 * session is answered as stored until the survivors end it `ERROR`), `logs` are none (they went with
 * it), and `release` asks the inner provider (a Grid session is freed from any instance) and reports
 * the session `ERROR`, or is `provider_unavailable` when the inner provider does not know it.
 */
export class InstanceRoutedProvider
  extends DelegatingBrowserProvider<ComposableBrowserProvider>
  implements ComposableBrowserProvider
{
  readonly liveUrls?: (providerSessionId: string) => Promise<ProviderLiveUrls | null>;
  private readonly directory: InstanceDirectory;
  private readonly client: InstanceClient;

  constructor(deps: {
    provider: ComposableBrowserProvider;
    directory: InstanceDirectory;
    client: InstanceClient;
  }) {
    super(deps.provider);
    this.directory = deps.directory;
    this.client = deps.client;
    const { inner } = this;
    if (inner.liveUrls) this.liveUrls = (id) => inner.liveUrls?.(id) ?? Promise.resolve(null);
  }

  override get reachesOtherInstances(): boolean {
    return true;
  }

  get capabilities(): ProviderCapabilities | undefined {
    return this.inner.capabilities;
  }

  override async get(providerSessionId: string): Promise<ProviderSessionSnapshot | null> {
    const holder = await this.directory.liveHolder({ providerSessionId });
    if (!holder) return this.inner.get(providerSessionId);
    if (!holder.record) throw lost(holder.id, this.directory.lostAfterMs);
    return this.client.get(holder.record, providerSessionId);
  }

  override async release(
    providerSessionId: string,
    providerProjectId?: string,
  ): Promise<ProviderSessionSnapshot | null> {
    const holder = await this.directory.liveHolder({ providerSessionId });
    if (!holder) return this.inner.release(providerSessionId, providerProjectId);
    if (holder.record) return this.client.release(holder.record, providerSessionId, providerProjectId);
    const released = await this.inner.release(providerSessionId, providerProjectId);
    if (!released) throw lost(holder.id, this.directory.lostAfterMs);
    return { ...released, status: 'ERROR' };
  }

  override async logs(providerSessionId: string): Promise<SessionLogEntry[]> {
    const holder = await this.directory.liveHolder({ providerSessionId });
    if (!holder) return this.inner.logs(providerSessionId);
    return holder.record ? this.client.logs(holder.record, providerSessionId) : [];
  }

  /** The holder's zip, streamed through this instance; a silent holder's are out of reach (`provider_unavailable`). */
  protected override async forwardDownloads(
    providerSessionId: string,
  ): Promise<AsyncIterable<Uint8Array> | null> {
    const holder = await this.directory.liveHolder({ providerSessionId });
    if (!holder) return super.forwardDownloads(providerSessionId);
    if (!holder.record) throw lost(holder.id, this.directory.lostAfterMs);
    return this.client.downloads(holder.record, providerSessionId);
  }

  /** The file, streamed through this instance to the holder's provider. */
  protected override async forwardUpload(
    providerSessionId: string,
    file: { readonly name: string; readonly content: AsyncIterable<Uint8Array> },
  ): Promise<UploadedSessionFile | null> {
    const holder = await this.directory.liveHolder({ providerSessionId });
    if (!holder) return super.forwardUpload(providerSessionId, file);
    if (!holder.record) throw lost(holder.id, this.directory.lostAfterMs);
    return this.client.upload(holder.record, providerSessionId, file);
  }
}

function lost(instanceId: string, lostAfterMs: number): ProviderError {
  return new ProviderError(
    'provider_unavailable',
    `The instance holding this session's browser (${instanceId}) has stopped answering; ` +
      `its sessions are ended ERROR within ${Math.ceil(lostAfterMs / 1000)} s of its last heartbeat.`,
  );
}
