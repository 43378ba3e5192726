/**
 * Bytes a tenant made that every instance must read (context profiles, ended sessions' downloads),
 * by key. The database is the default store (`MikroOrmBlobStore`); an object store is another
 * implementation of this port. Keys are `/`-separated paths the callers build (`contexts/…`).
 */
export interface BlobStore {
  /** Stores `content` under `key`, replacing what was there. */
  put(key: string, content: Uint8Array): Promise<void>;
  /** The bytes under `key`, or null when there are none. */
  get(key: string): Promise<Uint8Array | null>;
  /** Removes what is under `key` (nothing when there is nothing). */
  delete(key: string): Promise<void>;
  /**
   * Removes every blob whose key starts with `prefix` and that was last written (`put`) before
   * `before`: how many went. The retention of what a caller keeps for a while (`downloads/…`).
   */
  deleteBefore(prefix: string, before: Date): Promise<number>;
  /**
   * Every blob whose key starts with `prefix`: its key, size in bytes and last write, in key order,
   * without the bytes. What a caller that bounds what it keeps (recordings) counts.
   */
  list(prefix: string): Promise<StoredBlobInfo[]>;
}

/** What `BlobStore.list` says of one blob. */
export interface StoredBlobInfo {
  readonly key: string;
  readonly bytes: number;
  readonly updatedAt: Date;
}
