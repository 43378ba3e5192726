import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { parseDatabaseUrl } from '@browserdeck/adapters/mikro-orm';
import { type Config, ConfigError, loadConfig } from './config.ts';

/**
 * Left out of the copy of the data folder: per-run scratch folders and the unpacked context
 * profiles (the profiles are in the database), both emptied at start-up.
 */
const SCRATCH = ['runs', 'context-cache'];
/** The SQLite files the snapshot replaces (the database is copied by `VACUUM INTO`, never as a file). */
const SQLITE_SIDE_FILES = ['', '-wal', '-shm', '-journal'];

/** What a backup holds, written as `backup.json` beside it. */
export interface BackupManifest {
  readonly createdAt: string;
  /** The data folder it was taken from. */
  readonly dataDir: string;
  readonly database: 'sqlite' | 'postgresql';
  /** The database's file in the backup: `browserdeck.sqlite` (a SQLite file) or `browserdeck.pgdump` (`pg_dump -Fc`). */
  readonly databaseFile: string;
  /** The newest migration the database had applied (SQLite; null for PostgreSQL). */
  readonly lastMigration: string | null;
}

/**
 * `npm run backup -- <dest>`: a backup of the server that `config` describes, taken while it runs,
 * into a new folder `dest` (mode 0700). The data folder is copied (keys, instance id, kept
 * downloads; not `runs/` nor `context-cache/`), and the database alongside: SQLite by `VACUUM INTO`, a
 * consistent snapshot of one transaction that includes what is still in the WAL, as
 * `browserdeck.sqlite`; PostgreSQL by `pg_dump --format=custom` (`PG_DUMP`, else `pg_dump` on
 * `PATH`), as `browserdeck.pgdump`. Restoring is the reverse, with the server stopped
 * (docs/deploy.md, "Backup and restore").
 */
export function backup(config: Config, dest: string, env: NodeJS.ProcessEnv = process.env): BackupManifest {
  const target = resolve(dest);
  const inside = relative(config.dataDir, target);
  if (inside === '' || (!isAbsolute(inside) && inside.split(sep)[0] !== '..'))
    throw new Error(`${target} is inside the data folder ${config.dataDir}: back up somewhere else`);
  if (existsSync(target) && readdirSync(target).length > 0)
    throw new Error(`${target} is not empty: give a new folder for the backup`);
  mkdirSync(target, { recursive: true, mode: 0o700 });
  chmodSync(target, 0o700);
  try {
    return backupInto(config, target, env);
  } catch (error) {
    // No half backup left behind (it would hold the keys and look complete but for backup.json).
    rmSync(target, { recursive: true, force: true });
    throw error;
  }
}

function backupInto(config: Config, target: string, env: NodeJS.ProcessEnv): BackupManifest {
  const location = parseDatabaseUrl(config.databaseUrl);
  const sqlite = location.dialect === 'sqlite' ? resolve(location.path) : null;
  const skipped = new Set([
    ...SCRATCH.map((name) => join(config.dataDir, name)),
    ...(sqlite ? SQLITE_SIDE_FILES.map((suffix) => `${sqlite}${suffix}`) : []),
  ]);
  if (existsSync(config.dataDir))
    cpSync(config.dataDir, target, {
      recursive: true,
      preserveTimestamps: true,
      filter: (source) => !skipped.has(source),
    });
  const databaseFile = sqlite ? 'browserdeck.sqlite' : 'browserdeck.pgdump';
  const lastMigration = sqlite
    ? snapshotSqlite(sqlite, join(target, databaseFile))
    : dumpPostgres(config.databaseUrl, join(target, databaseFile), env);
  const manifest: BackupManifest = {
    createdAt: new Date().toISOString(),
    dataDir: config.dataDir,
    database: sqlite ? 'sqlite' : 'postgresql',
    databaseFile,
    lastMigration,
  };
  writeFileSync(join(target, 'backup.json'), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
  return manifest;
}

/** `VACUUM INTO`: one read transaction, so the copy is consistent while the server writes. */
function snapshotSqlite(file: string, into: string): string | null {
  if (!existsSync(file)) throw new Error(`no SQLite database at ${file}`);
  const db = new DatabaseSync(file, { timeout: 10_000 });
  try {
    db.prepare('vacuum into ?').run(into);
  } finally {
    db.close();
  }
  chmodSync(into, 0o600);
  const copy = new DatabaseSync(into, { readOnly: true });
  try {
    const row = copy.prepare('select name from mikro_orm_migrations order by id desc limit 1').get() as
      | { name: string }
      | undefined;
    return row?.name ?? null;
  } finally {
    copy.close();
  }
}

/** `pg_dump -Fc`; the password goes in `PGPASSWORD`, never on the command line (`ps` shows that). */
function dumpPostgres(databaseUrl: string, into: string, env: NodeJS.ProcessEnv): null {
  const pgDump = env.PG_DUMP || 'pg_dump';
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = '';
  const done = spawnSync(pgDump, ['--format=custom', `--file=${into}`, `--dbname=${url.href}`], {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: password ? { ...env, PGPASSWORD: password } : env,
  });
  if (done.error)
    throw new Error(
      `${pgDump} did not run (${done.error.message}): install PostgreSQL's client tools or set PG_DUMP`,
    );
  if (done.status !== 0) throw new Error(`${pgDump} failed (exit ${done.status})`);
  chmodSync(into, 0o600);
  return null;
}

if (import.meta.main) {
  const [dest, ...rest] = process.argv.slice(2);
  if (!dest || rest.length > 0) {
    console.error(
      'usage: npm run backup -- <new folder>   (in the server’s environment: DATA_DIR, DATABASE_URL)',
    );
    process.exit(2);
  }
  try {
    // A relative folder is the caller's (npm runs scripts from the repository's root; INIT_CWD is where npm was run).
    const target = resolve(process.env.INIT_CWD ?? process.cwd(), dest);
    const manifest = backup(loadConfig(process.env), target);
    console.error(
      `backup: ${manifest.dataDir} and its ${manifest.database} database (${manifest.databaseFile}) are in ${target}`,
    );
  } catch (error) {
    console.error(error instanceof ConfigError ? error.message : `backup: ${(error as Error).message}`);
    process.exit(1);
  }
}
