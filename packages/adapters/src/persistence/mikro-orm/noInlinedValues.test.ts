import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '../../');

/**
 * The entity manager's query methods, and `execute` with values: MikroORM 7 splices their values
 * into the SQL text (`platform.formatQuery`, mikro-orm/mikro-orm#8001), so no client value may reach
 * them. Queries go through `KyselyQueries`, which binds every value (docs/adr/0030).
 */
const INLINING = [
  /\bem(?:\(\)|\.fork\(\))?\s*\.\s*(?:find|findOne|findAll|findAndCount|count|insert|insertMany|upsert|upsertMany|nativeUpdate|nativeDelete|createQueryBuilder|qb|execute)\s*\(/,
  /getConnection\(\)\s*\.\s*execute\s*\([^)]*,/,
];

/** Constant SQL with a constant value (the migrations' advisory lock key). */
const ALLOWED = new Set(['persistence/mikro-orm/migrateToLatest.ts']);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('values reach SQL only bound', () => {
  it('no adapter source runs a query through the entity manager or `execute` with values', () => {
    const offenders = sources(SRC)
      .map((path) => relative(SRC, path))
      .filter((file) => !ALLOWED.has(file))
      .filter((file) => INLINING.some((pattern) => pattern.test(readFileSync(join(SRC, file), 'utf8'))));
    expect(offenders).toEqual([]);
  });

  it('would catch one', () => {
    expect(INLINING.some((p) => p.test('await this.em().findOne(UserSchema, { email })'))).toBe(true);
    expect(INLINING.some((p) => p.test("orm.em.getConnection().execute('select ?', [value])"))).toBe(true);
    expect(INLINING.some((p) => p.test("orm.em.getConnection().execute('select 1')"))).toBe(false);
  });
});
