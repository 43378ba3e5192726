import { Project } from '@browserdeck/domain';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openTestOrm, type TestOrm } from '../../../../../test/mikroOrm.ts';
import { DATABASE_DIALECTS } from './BrowserdeckOrm.ts';
import { MikroOrmProjectRepository } from './MikroOrmProjectRepository.ts';
import { nativeSqlOf, sqlBoolean, sqlDate } from './NativeSql.ts';

const OWNER = '0190b6a0-0000-7000-8000-000000000001';

describe.each(DATABASE_DIALECTS)('NativeSql on %s', (dialect) => {
  let db: TestOrm;
  beforeAll(async () => {
    db = await openTestOrm(dialect);
  });
  afterAll(() => db?.close());
  beforeEach(async () => {
    await db.reset();
    await db.orm.em
      .getConnection()
      .execute(`insert into users (id, email, created_at) values (?, ?, ?)`, [
        OWNER,
        'owner@example.com',
        dialect === 'sqlite' ? Date.now() : new Date(),
      ]);
  });

  const project = (slug: string, name: string, createdAt: Date) =>
    Project.create({ id: crypto.randomUUID(), ownerId: OWNER, name, slug, now: createdAt });

  it('binds booleans and dates the way MikroORM stores them, and reads them back', async () => {
    const createdAt = new Date('2026-03-04T05:06:07.089Z');
    const stored = project('one', 'One', createdAt);
    await new MikroOrmProjectRepository({ orm: db.orm }).add(stored);
    const rows = await nativeSqlOf(db.orm).all<{ archived: unknown; created_at: unknown }>(
      'select archived, created_at from projects where owner_id = ? and archived = ? and created_at = ?',
      [OWNER, false, createdAt],
    );
    expect(rows).toHaveLength(1);
    expect(sqlBoolean(rows[0]?.archived)).toBe(false);
    expect(sqlDate(rows[0]?.created_at).toISOString()).toBe('2026-03-04T05:06:07.089Z');
    expect(await nativeSqlOf(db.orm).all('select id from projects where archived = ?', [true])).toEqual([]);
  });

  it('binds parameters instead of splicing them, and reuses a statement with new values', async () => {
    const repo = new MikroOrmProjectRepository({ orm: db.orm });
    const hostile = "x'); delete from projects; -- ?";
    await repo.add(project('a', hostile, new Date('2026-01-01T00:00:00Z')));
    await repo.add(project('b', 'Plain', new Date('2026-01-02T00:00:00Z')));
    const sql = nativeSqlOf(db.orm);
    const byName = (name: string) =>
      sql.all<{ slug: string }>('select slug from projects where name = ?', [name]);
    expect(await byName(hostile)).toEqual([{ slug: 'a' }]);
    expect(await byName('Plain')).toEqual([{ slug: 'b' }]);
    expect(await byName('nobody')).toEqual([]);
    expect(await sql.one<{ n: unknown }>('select count(*) as n from projects', [])).toEqual({
      n: dialect === 'sqlite' ? 2 : '2',
    });
  });

  it('runs writes with bound parameters and tells how many rows they changed', async () => {
    const repo = new MikroOrmProjectRepository({ orm: db.orm });
    await repo.add(project('a', 'A', new Date('2026-01-01T00:00:00Z')));
    await repo.add(project('b', 'B', new Date('2026-01-02T00:00:00Z')));
    const sql = nativeSqlOf(db.orm);
    const archive = (slug: string) =>
      sql.run('update projects set archived = ?, updated_at = ? where slug = ?', [
        true,
        new Date('2026-02-01T00:00:00.123Z'),
        slug,
      ]);
    expect(await archive('a')).toBe(1);
    expect(await archive('nobody')).toBe(0);
    expect(await sql.run('update projects set name = ? where owner_id = ?', ['Renamed', OWNER])).toBe(2);
    const stored = await repo.listOwned(OWNER, { archived: true });
    expect(stored.map((p) => [p.slug, p.name, p.updatedAt.toISOString()])).toEqual([
      ['a', 'Renamed', '2026-02-01T00:00:00.123Z'],
    ]);
  });

  it('is one instance per ORM', () => {
    expect(nativeSqlOf(db.orm)).toBe(nativeSqlOf(db.orm));
    expect(nativeSqlOf(db.orm).dialect).toBe(dialect);
  });
});
