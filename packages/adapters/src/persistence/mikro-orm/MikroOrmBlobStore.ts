import type { Clock } from '@browserdeck/domain';
import { sql } from 'kysely';
import type { BlobStore, StoredBlobInfo } from '../../browsers/shared-state/BlobStore.ts';
import type { BrowserdeckOrm } from './BrowserdeckOrm.ts';
import { withDatabaseErrors } from './databaseErrors.ts';
import { type KyselyQueries, queriesOf } from './KyselyQueries.ts';

/**
 * `BlobStore` in the service's database (`stored_blobs`): one row per key, the bytes in a blob
 * (SQLite) or bytea (PostgreSQL) column, written with one upsert. The callers bound what they store
 * (a context profile by `CONTEXT_MAX_MB`), so a row stays far below either database's value limit.
 */
export class MikroOrmBlobStore implements BlobStore {
  private readonly queries: KyselyQueries;
  private readonly clock: Clock;

  constructor(deps: { orm: BrowserdeckOrm; clock: Clock }) {
    this.queries = queriesOf(deps.orm);
    this.clock = deps.clock;
  }

  async put(key: string, content: Uint8Array): Promise<void> {
    const bytes = Buffer.from(content.buffer, content.byteOffset, content.byteLength);
    const row = { key, size: bytes.byteLength, content: bytes, updated_at: this.clock.now() };
    const { db } = this.queries;
    await withDatabaseErrors(() =>
      this.queries.run(
        db
          .insertInto('stored_blobs')
          .values(row)
          .onConflict((oc) =>
            oc
              .column('key')
              .doUpdateSet({ size: row.size, content: row.content, updated_at: row.updated_at }),
          ),
      ),
    );
  }

  async get(key: string): Promise<Uint8Array | null> {
    const { db } = this.queries;
    const [row] = await withDatabaseErrors(() =>
      this.queries.rows(db.selectFrom('stored_blobs').select('content').where('key', '=', key)),
    );
    const content = row?.content as Uint8Array | undefined;
    return content ? new Uint8Array(content.buffer, content.byteOffset, content.byteLength) : null;
  }

  async delete(key: string): Promise<void> {
    const { db } = this.queries;
    await withDatabaseErrors(() => this.queries.run(db.deleteFrom('stored_blobs').where('key', '=', key)));
  }

  async deleteBefore(prefix: string, before: Date): Promise<number> {
    const { db } = this.queries;
    // A prefix compared as a string (no LIKE, whose wildcards and escapes differ by dialect).
    const keyStarts = sql<boolean>`substr(${sql.ref('key')}, 1, ${prefix.length}) = ${prefix}`;
    return withDatabaseErrors(() =>
      this.queries.run(db.deleteFrom('stored_blobs').where(keyStarts).where('updated_at', '<', before)),
    );
  }

  async list(prefix: string): Promise<StoredBlobInfo[]> {
    const { db } = this.queries;
    const keyStarts = sql<boolean>`substr(${sql.ref('key')}, 1, ${prefix.length}) = ${prefix}`;
    const rows = await withDatabaseErrors(() =>
      this.queries.rows(
        db.selectFrom('stored_blobs').select(['key', 'size', 'updated_at']).where(keyStarts).orderBy('key'),
      ),
    );
    return rows.map((row) => ({
      key: String(row.key),
      bytes: Number(row.size),
      updatedAt: new Date(row.updated_at as unknown as string | number | Date),
    }));
  }
}
