import type { Logger } from '@browserdeck/domain';
import type { BlobStore } from '../../shared-state/BlobStore.ts';
import { zipDownloads } from './zipDownloads.ts';

/** Where ended sessions' downloads are in the blob store: `downloads/<providerSessionId>`. */
export const SHARED_DOWNLOADS_PREFIX = 'downloads/';

/** The blob of one ended session's downloads. */
export function sharedDownloadsKey(providerSessionId: string): string {
  return `${SHARED_DOWNLOADS_PREFIX}${providerSessionId}`;
}

/**
 * The copy of ended sessions' kept downloads that every instance reads (`BlobStore`): the zip of
 * the kept folder (`zipDownloads`), written by the instance that held the session once its folder is
 * kept, so that any other instance serves it, also after that one has stopped. It holds only what the
 * folder kept (within its budgets), as one blob written at once (held in memory while it is made),
 * and goes with the folder (evicted or past its time), or past the retention by any instance's sweep.
 * Writes and removals that fail are logged: the folder still serves its own instance, and a sweep
 * removes the blob later.
 */
export class SharedDownloads {
  private readonly blobs: BlobStore;
  private readonly logger: Logger;

  constructor(deps: { blobs: BlobStore; logger: Logger }) {
    this.blobs = deps.blobs;
    this.logger = deps.logger;
  }

  /** Writes the zip of `folder` (a session's kept downloads) as the session's blob. */
  async store(providerSessionId: string, folder: string): Promise<void> {
    try {
      const chunks: Uint8Array[] = [];
      for await (const chunk of zipDownloads(folder)) chunks.push(chunk);
      await this.blobs.put(sharedDownloadsKey(providerSessionId), Buffer.concat(chunks));
    } catch (error) {
      this.logger.warn(
        { err: error, providerSessionId },
        'local provider: could not share a session’s downloads with the other instances',
      );
    }
  }

  /**
   * The session's zip when a blob written since `keptSince` holds it; an older one is removed first,
   * so nothing past the retention is served between two sweeps.
   */
  async read(providerSessionId: string, keptSince: Date): Promise<AsyncIterable<Uint8Array> | null> {
    const key = sharedDownloadsKey(providerSessionId);
    await this.blobs.deleteBefore(key, keptSince);
    const zip = await this.blobs.get(key);
    return zip ? single(zip) : null;
  }

  /** Removes the session's blob (its folder was removed). */
  async remove(providerSessionId: string): Promise<void> {
    await this.blobs.delete(sharedDownloadsKey(providerSessionId)).catch((error: unknown) => {
      this.logger.warn(
        { err: error, providerSessionId },
        'local provider: could not remove a session’s shared downloads; the sweep will',
      );
    });
  }

  /** Removes every session's blob written before `keptSince` (those of stopped instances too). */
  async sweep(keptSince: Date): Promise<void> {
    await this.blobs.deleteBefore(SHARED_DOWNLOADS_PREFIX, keptSince);
  }
}

async function* single(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
}
