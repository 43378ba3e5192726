import type { SqliteConnection } from '@mikro-orm/sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import type { BrowserdeckOrm } from './BrowserdeckOrm.ts';
import { cacheSqliteStatements } from './cacheSqliteStatements.ts';
import { createMikroOrm } from './createMikroOrm.ts';

/** The better-sqlite3 surface these tests touch. */
interface Statement {
  readonly busy: boolean;
  run(...params: unknown[]): unknown;
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  iterate(...params: unknown[]): Iterable<unknown>;
  columns(): Array<{ name: string }>;
}
interface Db {
  prepare(sql: string): Statement;
  exec(sql: string): void;
}

let orm: BrowserdeckOrm | undefined;
let db: Db;
afterEach(async () => {
  await orm?.close();
  orm = undefined;
});

/** The better-sqlite3 database of a real SQLite ORM, its `prepare` cached. */
async function open(): Promise<Db> {
  orm = await createMikroOrm({ databaseUrl: 'sqlite::memory:' });
  db = (await (orm.em.getConnection() as unknown as SqliteConnection).getNativeClient()) as Db;
  cacheSqliteStatements(db);
  db.exec('create table t (id integer primary key, name text)');
  return db;
}

describe('cacheSqliteStatements', () => {
  it('hands back the compiled statement for SQL text it has seen, with correct results', async () => {
    await open();
    const insert = db.prepare('insert into t (name) values (?)');
    expect(db.prepare('insert into t (name) values (?)')).toBe(insert);
    insert.run('a');
    db.prepare('insert into t (name) values (?)').run('b');
    expect(db.prepare('select name from t order by id').all()).toEqual([{ name: 'a' }, { name: 'b' }]);
    expect(db.prepare('select name from t where id = ?').get(2)).toEqual({ name: 'b' });
  });

  it('does not share a statement that is still iterating', async () => {
    await open();
    db.prepare('insert into t (name) values (?)').run('a');
    db.prepare('insert into t (name) values (?)').run('b');
    const sql = 'select name from t order by id';
    const outer = db.prepare(sql);
    const names: string[] = [];
    for (const row of outer.iterate() as Iterable<{ name: string }>) {
      const inner = db.prepare(sql);
      expect(inner).not.toBe(outer);
      names.push(`${row.name}:${(inner.all() as unknown[]).length}`);
    }
    expect(names).toEqual(['a:2', 'b:2']);
    expect(db.prepare(sql)).toBe(outer);
  });

  it('keeps at most maxEntries texts, dropping the oldest first', () => {
    const compiled: string[] = [];
    const fake = {
      prepare: (sql: string) => {
        compiled.push(sql);
        return { busy: false, sql };
      },
    };
    cacheSqliteStatements(fake, 2);
    const first = fake.prepare('select 1');
    const second = fake.prepare('select 2');
    fake.prepare('select 3');
    expect(fake.prepare('select 2')).toBe(second);
    expect(fake.prepare('select 1')).not.toBe(first);
    expect(compiled).toEqual(['select 1', 'select 2', 'select 3', 'select 1']);
  });

  it('sees schema changes made after a statement was cached', async () => {
    await open();
    expect(
      db
        .prepare('select * from t')
        .columns()
        .map((c) => c.name),
    ).toEqual(['id', 'name']);
    db.exec('alter table t add column extra text');
    db.prepare('insert into t (name, extra) values (?, ?)').run('a', 'x');
    expect(db.prepare('select * from t').all()).toEqual([{ id: 1, name: 'a', extra: 'x' }]);
  });
});
