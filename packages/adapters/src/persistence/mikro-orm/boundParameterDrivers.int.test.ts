import { User } from '@browserdeck/domain';
import { AWKWARD_OPAQUE } from '@browserdeck/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { openTestOrm, type TestOrm } from '../../../../../test/mikroOrm.ts';
import { DATABASE_DIALECTS } from './BrowserdeckOrm.ts';
import { UserSchema } from './entities/UserSchema.ts';

const ID = '0190c000-0000-7000-8000-000000000001';
const OTHER = '0190c000-0000-7000-8000-000000000002';
const at = new Date('2026-03-04T05:06:07.089Z');

/** The statements MikroORM hands Kysely while `work` runs: their text and bound values. */
async function sentStatements(db: TestOrm, work: () => Promise<unknown>) {
  const client = db.orm.em.getConnection().getClient();
  const spy = vi.spyOn(client, 'executeQuery');
  try {
    await work();
    return spy.mock.calls.map(([query]) => query as { sql: string; parameters: readonly unknown[] });
  } finally {
    spy.mockRestore();
  }
}

describe.each(DATABASE_DIALECTS)('MikroORM with bound parameters on %s', (dialect) => {
  let db: TestOrm;
  beforeAll(async () => {
    db = await openTestOrm(dialect);
  });
  afterAll(() => db?.close());
  beforeEach(() => db.reset());

  const user = (id: string, email: string) => User.create({ id, email, createdAt: at });

  it('sends strings as parameters, never in the statement text', async () => {
    const email = "o'brien\\?$1@example.com";
    const sent = await sentStatements(db, async () => {
      await db.orm.em.fork().insert(UserSchema, user(ID, email));
      await db.orm.em.fork().findOne(UserSchema, { email });
      await db.orm.em.fork().nativeUpdate(UserSchema, { id: ID }, { email: `${email}!` });
    });
    expect(sent).toHaveLength(3);
    for (const statement of sent) {
      expect(statement.sql).not.toContain('brien');
      expect(statement.parameters.some((p) => typeof p === 'string' && p.includes('brien'))).toBe(true);
    }
    expect((await db.orm.em.fork().findOne(UserSchema, { id: ID }))?.email).toBe(`${email}!`);
  });

  it('stores and reads back every awkward character through the entity manager', async () => {
    await db.orm.em.fork().insert(UserSchema, user(ID, AWKWARD_OPAQUE));
    const found = await db.orm.em.fork().findOne(UserSchema, { email: AWKWARD_OPAQUE });
    expect(found?.email).toBe(AWKWARD_OPAQUE);
  });

  it('binds each string of a list, named parameters and values inside raw SQL; identifiers stay inline', async () => {
    await db.orm.em.fork().insert(UserSchema, user(ID, "a'?@example.com"));
    await db.orm.em.fork().insert(UserSchema, user(OTHER, 'b??@example.com'));
    const connection = db.orm.em.getConnection();
    const listed = await connection.execute<{ email: string }[]>(
      'select ?? from users where email in (?) order by email',
      ['email', ["a'?@example.com", 'b??@example.com', 'nobody']],
    );
    expect(listed.map((row) => row.email)).toEqual(["a'?@example.com", 'b??@example.com']);
    const named = await connection.execute<{ id: string }[]>('select id from users where email = :email', {
      email: 'b??@example.com',
    });
    expect(named).toEqual([{ id: OTHER }]);
    const byEntityManager = await db.orm.em
      .fork()
      .find(UserSchema, { email: { $in: ["a'?@example.com", 'x'] } }, { orderBy: { email: 'asc' } });
    expect(byEntityManager.map((u) => u.id)).toEqual([ID]);
  });

  it('treats a NUL as data: the value is stored, or refused by the database, never cut into the SQL', async () => {
    const withNul = 'nul\u0000@example.com';
    const insert = db.orm.em.fork().insert(UserSchema, user(ID, withNul));
    if (dialect === 'sqlite') {
      await insert;
      expect((await db.orm.em.fork().findOne(UserSchema, { id: ID }))?.email).toBe(withNul);
    } else {
      // PostgreSQL text cannot hold U+0000 (the domain refuses it first): 22021, not a syntax error.
      await expect(insert).rejects.toMatchObject({ code: '22021' });
    }
  });
});
