import { defineEntity, p } from '@mikro-orm/core';

/**
 * Bytes every instance reads (`stored_blobs`, the database's `BlobStore`): a key the caller builds,
 * the bytes (a blob on SQLite, bytea on PostgreSQL) and their size and time of writing.
 */
export const StoredBlobSchema = defineEntity({
  name: 'StoredBlob',
  tableName: 'stored_blobs',
  properties: {
    key: p.text().primary(),
    size: p.integer(),
    content: p.blob(),
    updatedAt: p.datetime(3),
  },
});
