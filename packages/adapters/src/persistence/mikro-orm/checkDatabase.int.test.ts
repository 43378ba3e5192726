import { createServer, type Socket } from 'node:net';
import { UnavailableError } from '@browserdeck/domain';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../../../../test/postgres.ts';
import { checkDatabase } from './checkDatabase.ts';
import { createMikroOrm } from './createMikroOrm.ts';
import { MikroOrmProjectRepository } from './MikroOrmProjectRepository.ts';
import { toDatabaseError } from './toDatabaseError.ts';

/** A loopback port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describe('checkDatabase and toDatabaseError', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('resolves while PostgreSQL answers', async () => {
    const database = await createTestDatabase();
    const orm = await createMikroOrm({ databaseUrl: database.url });
    cleanups.push(database.drop, () => orm.close(true));
    await expect(checkDatabase(orm)).resolves.toBeUndefined();
  });

  it('resolves while SQLite answers', async () => {
    const orm = await createMikroOrm({ databaseUrl: 'sqlite::memory:' });
    cleanups.push(() => orm.close(true));
    await expect(checkDatabase(orm)).resolves.toBeUndefined();
  });

  it('throws database_unavailable when PostgreSQL does not answer, and so do repositories', async () => {
    const orm = await createMikroOrm({ databaseUrl: `postgres://u:p@127.0.0.1:${await closedPort()}/gone` });
    cleanups.push(() => orm.close(true));

    const probe = await checkDatabase(orm).catch((error: unknown) => error);
    expect(probe).toBeInstanceOf(UnavailableError);
    expect(probe).toMatchObject({ code: 'database_unavailable' });

    const projects = new MikroOrmProjectRepository({ orm });
    const read = await projects
      .findOldestOwned('0190d000-0000-7000-8000-000000000001')
      .catch((error: unknown) => error);
    expect(read).toBeInstanceOf(UnavailableError);
    expect(read).toMatchObject({ code: 'database_unavailable' });
    // The raw driver error maps too (for callers that talk to the ORM directly).
    const raw = await orm.em
      .getConnection()
      .execute('select 1')
      .catch((error: unknown) => error);
    expect(toDatabaseError(raw)).toMatchObject({ code: 'database_unavailable' });
  });

  it('gives up on a database that accepts connections but never answers', async () => {
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as { port: number };
    const orm = await createMikroOrm({ databaseUrl: `postgres://u:p@127.0.0.1:${port}/silent` });
    cleanups.push(async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
      await orm.close(true);
    });
    const started = Date.now();
    await expect(checkDatabase(orm, { timeoutMs: 300 })).rejects.toMatchObject({
      code: 'database_unavailable',
    });
    expect(Date.now() - started).toBeLessThan(3_000);
  });
});
