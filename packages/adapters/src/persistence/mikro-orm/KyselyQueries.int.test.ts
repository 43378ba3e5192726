import { Project, User } from '@browserdeck/domain';
import { AWKWARD_OPAQUE } from '@browserdeck/testing';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { openTestOrm, type TestOrm } from '../../../../../test/mikroOrm.ts';
import { DATABASE_DIALECTS } from './BrowserdeckOrm.ts';
import { ProjectSchema } from './entities/ProjectSchema.ts';
import { queriesOf } from './KyselyQueries.ts';
import type { BrowserdeckDb } from './kyselyDatabase.ts';
import { MikroOrmProjectRepository } from './MikroOrmProjectRepository.ts';
import { MikroOrmUserRepository } from './MikroOrmUserRepository.ts';
import { Statement } from './Statement.ts';
import { claimForSyncQuery } from './sessionClaimSql.ts';

const OWNER = '0190c000-0000-7000-8000-000000000001';
const at = new Date('2026-03-04T05:06:07.089Z');

describe.each(DATABASE_DIALECTS)('KyselyQueries on %s', (dialect) => {
  let db: TestOrm;
  beforeAll(async () => {
    db = await openTestOrm(dialect);
  });
  afterAll(() => db?.close());
  beforeEach(async () => {
    await db.reset();
    await new MikroOrmUserRepository({ orm: db.orm }).ensure(
      User.create({ id: OWNER, email: 'owner@example.com', createdAt: at }),
    );
  });

  const projects = () => new MikroOrmProjectRepository({ orm: db.orm });
  const project = (slug: string, name: string, createdAt = at) =>
    Project.create({ id: crypto.randomUUID(), ownerId: OWNER, name, slug, now: createdAt });

  /**
   * The statements the repositories hand the driver while `work` runs, their text and values: what
   * `KyselyQueries` compiles for each (the one query path, inside a transaction or not).
   */
  async function sentStatements(work: () => Promise<unknown>) {
    const spy = vi.spyOn(queriesOf(db.orm), 'compile');
    try {
      await work();
      return spy.mock.results.map(
        (result) => result.value as { sql: string; parameters: readonly unknown[] },
      );
    } finally {
      spy.mockRestore();
    }
  }

  it('sends strings as parameters, never in the statement text', async () => {
    const name = "o'brien\\?$1 -- ?";
    const stored = project('a', name);
    const sent = await sentStatements(async () => {
      await projects().add(stored);
      await projects().listForMember(OWNER, { archived: false });
      stored.rename(`${name}!`, at);
      await projects().update(stored);
    });
    // The project and its owner member, the list, the rename.
    expect(sent).toHaveLength(4);
    for (const statement of sent) expect(statement.sql).not.toContain('brien');
    expect(sent[0]?.parameters).toContain(name);
    expect(sent[3]?.parameters).toContain(`${name}!`);
    expect((await projects().findAccess(stored.id, OWNER))?.project.name).toBe(`${name}!`);
  });

  const users = () => new MikroOrmUserRepository({ orm: db.orm });
  const OTHER = '0190c000-0000-7000-8000-000000000002';

  it('stores and reads back every awkward character', async () => {
    await users().ensure(User.create({ id: OTHER, email: AWKWARD_OPAQUE, createdAt: at }));
    expect((await users().findById(OTHER))?.email).toBe(AWKWARD_OPAQUE);
  });

  it('binds each value of a list and each value inside a sql template', async () => {
    await projects().add(project('a', "a'?"));
    await projects().add(project('b', 'b??'));
    const queries = queriesOf(db.orm);
    const listed = queries.db
      .selectFrom('projects')
      .select('slug')
      .where('name', 'in', ["a'?", 'b??', 'nobody'])
      .where(sql<boolean>`${sql.ref('owner_id')} = ${OWNER}`)
      .orderBy('slug');
    const compiled = queries.compile(listed);
    expect(compiled.sql).not.toMatch(/nobody|a'\?/);
    expect(compiled.parameters).toEqual(["a'?", 'b??', 'nobody', OWNER]);
    expect(await queries.rows(listed)).toEqual([{ slug: 'a' }, { slug: 'b' }]);
  });

  it('binds booleans and dates the way MikroORM stores them, and reads them back', async () => {
    await projects().add(project('one', 'One'));
    const queries = queriesOf(db.orm);
    const query = (archived: boolean) =>
      queries.db
        .selectFrom('projects')
        .selectAll()
        .where('owner_id', '=', OWNER)
        .where('archived', '=', archived)
        .where('created_at', '=', at);
    expect(queries.compile(query(false)).parameters).toEqual(
      dialect === 'sqlite' ? [OWNER, 0, at.getTime()] : [OWNER, false, at],
    );
    const [row] = await queries.entities(ProjectSchema, query(false));
    expect(row?.archived).toBe(false);
    expect(row?.createdAt).toEqual(new Date('2026-03-04T05:06:07.089Z'));
    expect(await queries.entities(ProjectSchema, query(true))).toEqual([]);
    // One statement text whatever the values: the driver's compiled statement is reused.
    expect(queries.compile(query(true)).sql).toBe(queries.compile(query(false)).sql);
  });

  it('runs writes with bound values and tells how many rows they changed', async () => {
    await projects().add(project('a', 'A'));
    await projects().add(project('b', 'B'));
    const queries = queriesOf(db.orm);
    const archive = (slug: string) =>
      queries.run(
        queries.db
          .updateTable('projects')
          .set({ archived: true, updated_at: new Date('2026-04-01T00:00:00.123Z') })
          .where('slug', '=', slug),
      );
    expect(await archive('a')).toBe(1);
    expect(await archive('nobody')).toBe(0);
    const renamed = queries.db.updateTable('projects').set({ name: 'Renamed' }).where('owner_id', '=', OWNER);
    expect(await queries.run(renamed)).toBe(2);
    const stored = await projects().listForMember(OWNER, { archived: true });
    expect(stored.map(({ project: p }) => [p.slug, p.name, p.updatedAt.toISOString()])).toEqual([
      ['a', 'Renamed', '2026-04-01T00:00:00.123Z'],
    ]);
  });

  it('treats a NUL as data: the value is stored, or refused by the database, never cut into the SQL', async () => {
    const withNul = 'nul\u0000@example.com';
    const add = users().ensure(User.create({ id: OTHER, email: withNul, createdAt: at }));
    if (dialect === 'sqlite') {
      await add;
      expect((await users().findById(OTHER))?.email).toBe(withNul);
    } else {
      // PostgreSQL text cannot hold U+0000 (the domain refuses it first): 22021, not a syntax error.
      await expect(add).rejects.toMatchObject({ code: '22021' });
    }
  });

  it("joins the entity manager's transaction, and rolls back with it", async () => {
    const kept = project('kept', 'Kept');
    const undone = project('undone', 'Undone');
    await db.orm.em.transactional(async () => {
      await projects().add(kept);
    });
    const failed = db.orm.em.transactional(async () => {
      await projects().add(undone);
      // Seen inside the transaction before it ends…
      expect((await projects().findAccess(undone.id, OWNER))?.project.slug).toBe('undone');
      throw new Error('boom');
    });
    await expect(failed).rejects.toThrow('boom');
    // …and gone with it.
    expect((await projects().listForMember(OWNER, { archived: false })).map((g) => g.project.slug)).toEqual([
      'kept',
    ]);
  });

  it("builds and compiles a prepared query once, and binds each run's values as stored", async () => {
    await projects().add(project('a', "a'?"));
    await projects().add(project('b', 'B'));
    const queries = queriesOf(db.orm);
    const build = vi.fn((qdb: Kysely<BrowserdeckDb>, params: { name: string; archived: boolean }) =>
      qdb
        .selectFrom('projects')
        .select('slug')
        .where('name', '=', params.name)
        .where('archived', '=', params.archived)
        .where('owner_id', '=', OWNER),
    );
    const bySlug = new Statement(build, { prepared: true });
    const run = (values: { name: string; archived: boolean }) => bySlug.query(queries, values);
    const first = queries.compile(run({ name: "a'?", archived: false }));
    expect(first.sql).not.toContain("a'?");
    expect(first.parameters).toEqual(["a'?", dialect === 'sqlite' ? 0 : false, OWNER]);
    expect(await queries.rows(run({ name: "a'?", archived: false }))).toEqual([{ slug: 'a' }]);
    expect(await queries.rows(run({ name: 'B', archived: false }))).toEqual([{ slug: 'b' }]);
    expect(await queries.rows(run({ name: 'B', archived: true }))).toEqual([]);
    expect(queries.compile(run({ name: 'B', archived: true })).sql).toBe(first.sql);
    expect(build).toHaveBeenCalledTimes(1);
  });

  it('refuses a prepared statement that uses a value other than as a bound one', () => {
    const queries = queriesOf(db.orm);
    const branching = new Statement(
      (qdb, params: { archived: boolean }) =>
        // A stand-in is an object, so this branch is always taken: values must not steer the SQL.
        params.archived
          ? qdb.selectFrom('projects').select('slug').where('archived', '=', true)
          : qdb.selectFrom('projects').select('slug'),
      { prepared: true },
    );
    expect(() => queries.compile(branching.query(queries, { archived: false }))).toThrow(
      'A prepared statement used archived other than as a bound value.',
    );
  });

  it("runs a prepared statement on the entity manager's transaction", async () => {
    const inside = project('inside', 'Inside');
    const failed = db.orm.em.transactional(async () => {
      await projects().add(inside);
      // listForMember is prepared: it sees the transaction's own, uncommitted row.
      expect((await projects().listForMember(OWNER, { archived: false })).map((g) => g.project.slug)).toEqual(
        ['inside'],
      );
      throw new Error('boom');
    });
    await expect(failed).rejects.toThrow('boom');
    expect(await projects().listForMember(OWNER, { archived: false })).toEqual([]);
  });

  it('locks claimed rows for update, skipping locked ones, on PostgreSQL only', () => {
    const queries = queriesOf(db.orm);
    const claim = claimForSyncQuery(queries, { now: at, leaseUntil: at, syncedBefore: at, limit: 5 });
    const { sql: text } = queries.compile(claim);
    if (dialect === 'postgresql') expect(text).toMatch(/for update skip locked/);
    else expect(text).not.toMatch(/for update/);
  });

  it('is one instance per ORM, of its dialect', () => {
    expect(queriesOf(db.orm)).toBe(queriesOf(db.orm));
    expect(queriesOf(db.orm).dialect).toBe(dialect);
  });
});
