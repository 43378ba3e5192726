import type { Clock } from '@browserdeck/domain';
import type { BlobStore, StoredBlobInfo } from './BlobStore.ts';

/** `BlobStore` in this process's memory, for tests: what it holds goes with the process. */
export class InMemoryBlobStore implements BlobStore {
  private readonly blobs = new Map<string, { content: Uint8Array; updatedAt: Date }>();
  /** Dates each write (`deleteBefore`); default the system clock. */
  private readonly clock: Pick<Clock, 'now'>;

  constructor(deps: { clock?: Pick<Clock, 'now'> | undefined } = {}) {
    this.clock = deps.clock ?? { now: () => new Date() };
  }

  async put(key: string, content: Uint8Array): Promise<void> {
    this.blobs.set(key, { content: content.slice(), updatedAt: this.clock.now() });
  }

  async get(key: string): Promise<Uint8Array | null> {
    return this.blobs.get(key)?.content.slice() ?? null;
  }

  async delete(key: string): Promise<void> {
    this.blobs.delete(key);
  }

  async deleteBefore(prefix: string, before: Date): Promise<number> {
    let removed = 0;
    for (const [key, blob] of this.blobs) {
      if (key.startsWith(prefix) && blob.updatedAt < before && this.blobs.delete(key)) removed++;
    }
    return removed;
  }

  async list(prefix: string): Promise<StoredBlobInfo[]> {
    return [...this.blobs]
      .filter(([key]) => key.startsWith(prefix))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, blob]) => ({ key, bytes: blob.content.byteLength, updatedAt: blob.updatedAt }));
  }

  /** Keys held now (tests). */
  keys(): string[] {
    return [...this.blobs.keys()];
  }
}
