import { defineEntity, p } from '@mikro-orm/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createMikroOrm,
  type DatabaseDialect,
  IdempotencyKeySchema,
  migrateToLatest,
} from '../packages/adapters/src/persistence/mikro-orm/index.ts';
import { openTestOrm, type TestOrm } from './mikroOrm.ts';

/**
 * `idempotency_keys` as someone might map it after adding a property but forgetting the migration.
 * (A leaf table: re-discovering a table that others reference would drag the original schema back in.)
 */
const IdempotencyKeyWithNote = defineEntity({
  name: 'IdempotencyKeyWithNote',
  tableName: 'idempotency_keys',
  properties: {
    scope: p.text().primary(),
    key: p.text().primary(),
    fingerprint: p.text(),
    sessionId: p.uuid().nullable(),
    answer: p.text().nullable(),
    createdAt: p.datetime(3),
    expiresAt: p.datetime(3),
    note: p.text().nullable(),
  },
});

/**
 * The checked-in migrations of `dialect` against the entity schemas: applied to a fresh database,
 * MikroORM's schema generator must find nothing left to change.
 */
export function describeMikroOrmMigrations(dialect: DatabaseDialect): void {
  describe(`migrations (${dialect})`, () => {
    let db: TestOrm;
    beforeAll(async () => {
      db = await openTestOrm(dialect);
    });
    afterAll(() => db?.close());

    it('bring a fresh database exactly to the entity schemas (no drift)', async () => {
      const executed = await db.orm.migrator.getExecuted();
      expect(executed.length).toBeGreaterThan(0);
      expect(await db.orm.migrator.getPending()).toEqual([]);
      expect(await db.orm.schema.getUpdateSchemaSQL({ wrap: false })).toBe('');
    });

    it('are applied once: running them again does nothing', async () => {
      expect(await migrateToLatest(db.orm)).toEqual([]);
    });

    it('are found out when an entity gains a property without a migration', async () => {
      const probe = await createMikroOrm({ databaseUrl: db.database.url });
      try {
        probe.discoverEntity(IdempotencyKeyWithNote, IdempotencyKeySchema);
        const sql = await probe.schema.getUpdateSchemaSQL({ wrap: false });
        expect(sql).toMatch(/alter table [`"]idempotency_keys[`"] add (column )?[`"]note[`"]/i);
      } finally {
        await probe.close(true);
      }
    });
  });
}
