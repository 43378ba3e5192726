import { User } from '@browserdeck/domain';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../../../test/postgres.ts';
import { createMikroOrm } from './createMikroOrm.ts';
import { MikroOrmUserRepository } from './MikroOrmUserRepository.ts';
import { migrateToLatest } from './migrateToLatest.ts';
import { namingStatements } from './namingStatements.ts';

const USER = '0190c000-0000-7000-8000-0000000000aa';

describe('namingStatements (PostgreSQL)', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database?.drop());

  async function client(maxNamed?: number) {
    const Client = namingStatements(pg.Client, maxNamed);
    const connected = new Client({ connectionString: database.url });
    await connected.connect();
    return connected as pg.Client;
  }
  const prepared = async (on: pg.Client) =>
    (await on.query('select name from pg_prepared_statements order by name')).rows.map((r) => r.name);

  it('prepares a statement with values once per connection, by a name of its text', async () => {
    const on = await client();
    try {
      expect((await on.query('select $1::int + 1 as n', [1])).rows).toEqual([{ n: 2 }]);
      expect((await on.query('select $1::int + 1 as n', [41])).rows).toEqual([{ n: 42 }]);
      await on.query('select 1');
      expect(await prepared(on)).toEqual([expect.stringMatching(/^bd_[\w-]{20}$/)]);
    } finally {
      await on.end();
    }
  });

  it('runs texts past the limit unnamed', async () => {
    const on = await client(2);
    try {
      for (const n of [1, 2, 3]) await on.query(`select $1::int * ${n} as n`, [n]);
      expect(await prepared(on)).toHaveLength(2);
      expect((await on.query('select $1::int * 3 as n', [3])).rows).toEqual([{ n: 9 }]);
    } finally {
      await on.end();
    }
  });

  it('reads on, unnamed, once a migration adds a column under a prepared `select *`', async () => {
    const on = await client();
    try {
      await on.query('create table widgets (id int primary key)');
      await on.query('insert into widgets values (1)');
      expect((await on.query('select * from widgets where id = $1', [1])).rows).toEqual([{ id: 1 }]);
      await on.query('alter table widgets add column size int');
      expect((await on.query('select * from widgets where id = $1', [1])).rows).toEqual([
        { id: 1, size: null },
      ]);
      expect((await on.query('select * from widgets where id = $1', [1])).rows).toEqual([
        { id: 1, size: null },
      ]);
    } finally {
      await on.end();
    }
  });

  it("is what createMikroOrm's pool is made of: the repositories' reads are prepared", async () => {
    const migrating = await createMikroOrm({ databaseUrl: database.url });
    await migrateToLatest(migrating);
    await migrating.close(true);
    // One connection, so the check below looks at the session the reads ran on.
    const orm = await createMikroOrm({ databaseUrl: database.url, poolSize: 1 });
    try {
      const users = new MikroOrmUserRepository({ orm });
      await users.ensure(User.create({ id: USER, email: 'named@example.com', createdAt: new Date() }));
      expect((await users.findById(USER))?.email).toBe('named@example.com');
      const names = await orm.em
        .getConnection()
        .execute<{ name: string }[]>('select name from pg_prepared_statements');
      expect(names.map((r) => r.name)).toContainEqual(expect.stringMatching(/^bd_/));
    } finally {
      await orm.close(true);
    }
  });
});
