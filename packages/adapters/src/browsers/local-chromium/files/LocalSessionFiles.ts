import type { FilesCapability, UploadedSessionFile } from '@browserdeck/domain';
import type { SessionRegistry } from '../session/SessionRegistry.ts';
import type { RetainedDownloads } from './RetainedDownloads.ts';
import { storeUpload } from './storeUpload.ts';
import { zipDownloads } from './zipDownloads.ts';

/** The local provider's `files`: sessions' downloads (while running, then as kept) and uploads. */
export class LocalSessionFiles implements FilesCapability {
  private readonly registry: SessionRegistry;
  private readonly retained: RetainedDownloads;

  constructor(deps: { registry: SessionRegistry; retained: RetainedDownloads }) {
    this.registry = deps.registry;
    this.retained = deps.retained;
  }

  /**
   * The session's completed downloads as a zip (`zipDownloads`): from its browser's Downloads folder
   * while it runs, then from the copy kept for `downloadsRetentionSec` after it ended (a read while
   * it ends waits for that copy): kept here, or, for a session another instance held, in the shared
   * blob store (`RetainedDownloads.archive`). Null for a session unknown here or past the retention.
   */
  async downloads(providerSessionId: string): Promise<AsyncIterable<Uint8Array> | null> {
    const running = this.registry.running(providerSessionId);
    if (running && !running.ended) return zipDownloads(running.browser.downloadsDir);
    return this.retained.archive(providerSessionId);
  }

  /**
   * Stores a file in the running session's uploads folder (`<profile>/Uploads`, `storeUpload`), whose
   * files its file inputs may take; bounded by the session's disk (`sessionDiskMb`). Null once the
   * session has ended or when it is unknown here.
   */
  async upload(
    providerSessionId: string,
    file: { readonly name: string; readonly content: AsyncIterable<Uint8Array> },
  ): Promise<UploadedSessionFile | null> {
    const running = this.registry.running(providerSessionId);
    if (!running || running.ended) return null;
    const { browser } = running;
    return storeUpload({
      uploadsDir: browser.uploadsDir,
      name: file.name,
      content: file.content,
      owner: browser.fileOwner,
    });
  }
}
