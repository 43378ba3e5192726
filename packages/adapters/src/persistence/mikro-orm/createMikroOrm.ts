import { createRequire } from 'node:module';
import { Migrator } from '@mikro-orm/migrations';
import type { BrowserdeckOrm } from './BrowserdeckOrm.ts';
import { cacheSqliteStatements, type PreparingDatabase } from './cacheSqliteStatements.ts';
import { persistenceEntities } from './entities/persistenceEntities.ts';
import { migrationsList } from './migrations/migrationsList.ts';
import { namingStatements } from './namingStatements.ts';
import { parseDatabaseUrl } from './parseDatabaseUrl.ts';
import { securePrivateSqliteFiles } from './securePrivateSqliteFiles.ts';

/** Options of `createMikroOrm`. */
export interface CreateMikroOrmOptions {
  /** `postgres://…` / `postgresql://…`, or `sqlite:<path>`, `file:<path>` or a plain path to a SQLite file. */
  databaseUrl: string;
  /** Log every query (MikroORM's `debug`). */
  debug?: boolean;
  /** PostgreSQL pool size (default 10). */
  poolSize?: number;
}

/** How long a SQLite statement waits for another process's write lock before failing. */
const SQLITE_BUSY_TIMEOUT_MS = 5_000;
/** How long PostgreSQL connection attempts may take before the query fails. */
const POSTGRES_CONNECT_TIMEOUT_MS = 5_000;

/**
 * An initialized MikroORM for `databaseUrl`, with Browserdeck's entity schemas and the checked-in
 * migrations of that dialect registered (apply them with `migrateToLatest`). Connects lazily: a
 * database that is down surfaces on the first query, not here. SQLite files get their parent
 * folder created (0700), mode 0600 for the database and its `-wal`/`-shm` (`securePrivateSqliteFiles`),
 * WAL journaling, foreign keys, and a busy timeout; PostgreSQL clients name their statements, so each
 * is prepared once per connection (`namingStatements`). MikroORM's stock drivers: the repositories
 * query through its Kysely integration (`KyselyQueries`), which binds every value (docs/adr/0030). Close it
 * with `orm.close()`. Only the dialect's driver package is loaded (`@mikro-orm/postgresql` or
 * `@mikro-orm/sqlite`, optional peers); a missing one is named in the error.
 */
export async function createMikroOrm(options: CreateMikroOrmOptions): Promise<BrowserdeckOrm> {
  const location = parseDatabaseUrl(options.databaseUrl);
  const common = {
    entities: [...persistenceEntities],
    extensions: [Migrator],
    debug: options.debug ?? false,
    // Keep domain prototypes free of per-property accessors: the repositories never rely on
    // MikroORM's change tracking (every write is an explicit statement).
    propagationOnPrototype: false,
    discovery: { checkDuplicateTableNames: true },
  };
  if (location.dialect === 'postgresql') {
    const { MikroORM } = await loadDriver('@mikro-orm/postgresql', () => import('@mikro-orm/postgresql'));
    // The `pg` MikroORM's pool is made of: its clients name their statements (`namingStatements`).
    const mikroOrmPostgres = createRequire(import.meta.url).resolve('@mikro-orm/postgresql/package.json');
    const pg = createRequire(mikroOrmPostgres)('pg') as typeof import('pg');
    const orm = await MikroORM.init({
      ...common,
      clientUrl: location.url,
      pool: { min: 0, max: options.poolSize ?? 10 },
      driverOptions: {
        connectionTimeoutMillis: POSTGRES_CONNECT_TIMEOUT_MS,
        Client: namingStatements(pg.Client),
      },
      migrations: { migrationsList: migrationsList.postgresql, snapshot: false, silent: true },
    });
    return orm as unknown as BrowserdeckOrm;
  }
  const file = location.path === ':memory:' ? null : location.path;
  const { MikroORM } = await loadDriver('@mikro-orm/sqlite', () => import('@mikro-orm/sqlite'));
  if (file) await securePrivateSqliteFiles(file);
  const orm = await MikroORM.init({
    ...common,
    dbName: location.path,
    // better-sqlite3's `timeout` is SQLite's busy timeout; MikroORM turns foreign keys on per connection.
    driverOptions: { timeout: SQLITE_BUSY_TIMEOUT_MS },
    migrations: { migrationsList: migrationsList.sqlite, snapshot: false, silent: true },
  });
  // Kysely's SQLite driver compiles every statement it runs: keep the compiled ones for reuse.
  const connection = orm.em.getConnection() as unknown as { getNativeClient(): Promise<unknown> };
  cacheSqliteStatements(
    (await connection.getNativeClient()) as PreparingDatabase<{ readonly busy: boolean }>,
  );
  if (file) {
    // WAL lets readers work while one writer writes; the mode is kept in the database file.
    await orm.em.getConnection().execute('pragma journal_mode = wal');
    // The -wal and -shm now exist; born 0600 from the database file's mode, checked once more.
    await securePrivateSqliteFiles(file);
  }
  return orm as unknown as BrowserdeckOrm;
}

/** Runs `load`; when the driver package is not installed, says which one to install. */
async function loadDriver<T>(name: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    const missing =
      (error as { code?: unknown }).code === 'ERR_MODULE_NOT_FOUND' && String(error).includes(name);
    if (!missing) throw error;
    throw new Error(
      `This database needs the ${name} package: npm i ${name} (the version of @mikro-orm/core).`,
      {
        cause: error,
      },
    );
  }
}
