import { type ExtensionsCapability, ProviderError } from '@browserdeck/domain';
import { type BrowserbaseCall, statusOf } from './BrowserbaseContextStore.ts';
import { loadBrowserbaseSdk } from './loadBrowserbaseSdk.ts';

/**
 * Browserbase's own extension store, through the SDK (`extensions.create`, `delete`): Browserbase's
 * browsers load only extensions uploaded to it, so an extension uploaded to one of our projects is
 * uploaded there too, and sessions name Browserbase's id for it. An upload is never retried (a
 * retry could store it twice); a delete of an id Browserbase no longer knows is done.
 */
export class BrowserbaseExtensionStore implements ExtensionsCapability {
  private readonly once: BrowserbaseCall;

  /** `once`: one attempt, under the upload's deadline, failures as `ProviderError`s. */
  constructor(deps: { once: BrowserbaseCall }) {
    this.once = deps.once;
  }

  async upload(archive: Uint8Array, fileName: string): Promise<string> {
    const { toFile } = await loadBrowserbaseSdk();
    const file = await toFile(Buffer.from(archive.buffer, archive.byteOffset, archive.byteLength), fileName, {
      type: 'application/zip',
    });
    const body = (await this.once('upload an extension', (client, signal) =>
      client.extensions.create({ file }, { maxRetries: 0, signal }),
    )) as { id?: unknown } | null;
    if (typeof body?.id !== 'string' || body.id.trim() === '')
      throw new ProviderError('provider_error', 'Browserbase answered an extension upload without an id.');
    return body.id;
  }

  async delete(providerExtensionId: string): Promise<void> {
    const id = encodeURIComponent(providerExtensionId);
    try {
      await this.once('delete an extension', (client, signal) =>
        client.extensions.delete(id, { maxRetries: 0, signal }),
      );
    } catch (error) {
      if (statusOf(error) !== 404) throw error;
    }
  }
}
