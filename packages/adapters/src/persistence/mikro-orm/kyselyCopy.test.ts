import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

describe('kysely', () => {
  it('is the one copy MikroORM runs the queries on (it pins kysely exactly; ours must resolve to it)', () => {
    const require = createRequire(import.meta.url);
    const fromMikroOrm = createRequire(require.resolve('@mikro-orm/sql/package.json')).resolve('kysely');
    expect(require.resolve('kysely')).toBe(fromMikroOrm);
  });
});
