import {
  type BrowserdeckOrm,
  createMikroOrm,
  type DatabaseDialect,
  migrateToLatest,
  persistenceEntities,
} from '../packages/adapters/src/persistence/mikro-orm/index.ts';
import { createSqliteTestUrl, createTestDatabase, type TestDatabase } from './postgres.ts';

/** A migrated database of one's own and an ORM on it. */
export interface TestOrm {
  orm: BrowserdeckOrm;
  database: TestDatabase;
  /** Empties every table (children first), keeping the schema. */
  reset(): Promise<void>;
  /** Closes the ORM and drops the database. */
  close(): Promise<void>;
}

/** Tables in the order they can be emptied without breaking a foreign key. */
const TABLES_CHILDREN_FIRST = [
  'run_logs',
  'runs',
  'idempotency_keys',
  'browser_sessions',
  'agents',
  'api_keys',
  'extensions',
  'invitations',
  'project_members',
  'audit_entries',
  'browser_contexts',
  'local_refresh_tokens',
  'local_sign_in_sessions',
  'local_credentials',
  'projects',
  'users',
  'supabase_revoked_sessions',
  'rate_limit_windows',
  'supabase_issued_refresh_tokens',
  'instances',
  'provider_orphan_searches',
  'session_shares',
  'stored_blobs',
];

const forgotten = persistenceEntities
  .map((entity) => entity.meta.tableName)
  .filter((table) => !TABLES_CHILDREN_FIRST.includes(table));
if (forgotten.length > 0)
  throw new Error(`TABLES_CHILDREN_FIRST misses ${forgotten.join(', ')}: reset() would keep their rows`);

/** A fresh database of `dialect` (temp SQLite file, or a new PostgreSQL database) with the migrations applied. */
export async function openTestOrm(dialect: DatabaseDialect): Promise<TestOrm> {
  const database = dialect === 'sqlite' ? createSqliteTestUrl() : await createTestDatabase();
  const orm = await createMikroOrm({ databaseUrl: database.url });
  await migrateToLatest(orm);
  return {
    orm,
    database,
    reset: async () => {
      const connection = orm.em.getConnection();
      for (const table of TABLES_CHILDREN_FIRST) await connection.execute(`delete from ${table}`);
    },
    close: async () => {
      await orm.close(true);
      await database.drop();
    },
  };
}
